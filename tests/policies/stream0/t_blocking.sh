# The null stream against blocking and non-blocking user streams: legacy
# rules without the policy, per-thread rules under it.
. tests/policies/stream0/lib.sh
both blocking
