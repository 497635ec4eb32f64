# mk/workloads.mk - the PyTorch evaluation pipeline
# (tests/workloads/evaluate_torch.py) on the CPU, by itself and under the
# shim: group `workloads`.  The HIP demo's own workload (evaluate.py and
# its extension) is built and tested by mk/ab.mk.  Needs Debian's
# python3-torch and python3-torchvision (mk/deps.sh).

CHECK_GROUPS += workloads
WORKLOADS_TESTS := $(sort $(wildcard tests/workloads/t_*.sh))

.PHONY: check-workloads
check-workloads: $(BUILD)/liblbshim.so
	@BUILD=$(BUILD) sh mk/run-tests.sh workloads $(BUILD)/results \
	  $(WORKLOADS_TESTS)
