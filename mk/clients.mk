# mk/clients.mk - real AMD libraries built by others (Debian's rocRAND,
# hipRAND, rocSPARSE, hipSPARSE) through the shim: small C programs
# (tests/clients/) on the real ROCm 5.2 runtime and on hipemu, under every
# policy, compared with runs without the shim; the trace against the calls
# hipemu received.

CLIENTS := $(BUILD)/tests/clients
CLIENT_NAMES := rocrand hiprand rocsparse hipsparse
CLIENT_PROGS := $(addprefix $(CLIENTS)/client_,$(CLIENT_NAMES))

CHECK_GROUPS += clients
.PHONY: check-clients

$(CLIENT_PROGS): $(CLIENTS)/client_%: tests/clients/client_%.c
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O1 -g $(WARN) -D__HIP_PLATFORM_AMD__ $< -o $@ \
		-l$* -lamdhip64

# hipemu's library is named literally: mk/hipemu.mk is read after this.
CLIENT_DEPS = $(CLIENT_PROGS) $(BUILD)/liblbshim.so $(BUILD)/lbtrace \
	$(BUILD)/hipemu/libamdhip64.so.5
CLIENT_TESTS = $(sort $(wildcard tests/clients/t_*.sh))

check-clients: $(CLIENT_DEPS)
	@BUILD=$(BUILD) SHIM=$(abspath $(BUILD)/liblbshim.so) PRELOAD_PREFIX= \
	  sh mk/run-tests.sh clients $(BUILD)/results $(CLIENT_TESTS)
