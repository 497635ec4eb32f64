# mk/install.mk - make install / uninstall (PREFIX, DESTDIR).

LIBDIR := $(PREFIX)/lib
BINDIR := $(PREFIX)/bin
MANDIR := $(PREFIX)/share/man
INCDIR := $(PREFIX)/include/lbshim
PUBLIC_HEADERS := include/lbshim/hip_api.def include/lbshim/api.h \
	include/lbshim/pp.h include/lbshim/hip_decls.h include/lbshim/trace_format.h
MAN_PAGES = $(wildcard man/*.[1-8])

CHECK_GROUPS += install

install: all
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(INCDIR)
	install -m 0755 $(BUILD)/liblbshim.so $(DESTDIR)$(LIBDIR)/liblbshim.so
	if [ -e $(BUILD)/lbtrace ]; then install -m 0755 $(BUILD)/lbtrace $(DESTDIR)$(BINDIR)/lbtrace; fi
	install -m 0644 $(PUBLIC_HEADERS) $(DESTDIR)$(INCDIR)/
	for m in $(MAN_PAGES); do \
	  s=$${m##*.}; install -d $(DESTDIR)$(MANDIR)/man$$s; \
	  install -m 0644 $$m $(DESTDIR)$(MANDIR)/man$$s/; done
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then \
	  ldconfig $(LIBDIR) 2>/dev/null || ldconfig; echo "ldconfig: done"; \
	  ldconfig -p | grep -q "liblbshim.so " || \
	  echo "note: $(LIBDIR) is not in the loader's path; use LD_PRELOAD=$(LIBDIR)/liblbshim.so"; \
	fi

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/liblbshim.so $(DESTDIR)$(BINDIR)/lbtrace
	rm -f $(addprefix $(DESTDIR)$(INCDIR)/,$(notdir $(PUBLIC_HEADERS)))
	-rmdir $(DESTDIR)$(INCDIR) 2>/dev/null
	for m in $(MAN_PAGES); do s=$${m##*.}; \
	  rm -f $(DESTDIR)$(MANDIR)/man$$s/$$(basename $$m); done

check-install: all $(SHIMT)/prog_threads $(FAKE_DIR)/libamdhip64.so.5
	@BUILD=$(BUILD) sh mk/run-tests.sh install $(BUILD)/results tests/shim/install_test.sh
