# hipStreamGetFlags/GetPriority(0) describe S; hipStreamDestroy(0) fails
# and leaves S working.
. tests/policies/stream0/lib.sh
both flags
