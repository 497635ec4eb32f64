# Events recorded on the null stream order another thread's work correctly.
. tests/policies/stream0/lib.sh
both event
