/*
 * version.h - the one version of lbshim: what `lbtrace --version` prints,
 * what the trace header's lbshim_version carries and what the shim says
 * at LBSHIM_LOG=info.  Raise it with every release.
 */
#ifndef LB_VERSION_H
#define LB_VERSION_H

#define LB_VERSION "0.1.0"

#endif
