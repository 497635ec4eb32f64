#!/bin/sh
# LBSHIM_POOL_FREE=sync: hipFree is a device-wide barrier again.
. "$(dirname "$0")/lib.sh"
LBSHIM_POOL_FREE=sync run freesync pool "$P" freesync
LBSHIM_POOL_FREE=sync run hazard pool "$P" hazard nonblocking
