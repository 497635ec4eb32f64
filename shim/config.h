/* config.h - start-up configuration, filled by lb_config_read(). */
#ifndef LB_CONFIG_H
#define LB_CONFIG_H

struct lb_config {
	const char *hip_library; /* LBSHIM_HIP_LIBRARY, or NULL */
};

/* Reads LBSHIM_LOG, LBSHIM_POLICIES, LBSHIM_HIP_LIBRARY (warns on bad). */
void lb_config_read(struct lb_config *cfg);

#endif
