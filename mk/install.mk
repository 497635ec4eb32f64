# mk/install.mk - make install / uninstall (PREFIX, DESTDIR).

LIBDIR := $(PREFIX)/lib
BINDIR := $(PREFIX)/bin
MANDIR := $(PREFIX)/share/man
INCDIR := $(PREFIX)/include/lbshim
PUBLIC_HEADERS := $(API_DEFS) include/lbshim/api.h include/lbshim/roles.h \
	include/lbshim/pp.h include/lbshim/hip_decls.h include/lbshim/trace_format.h
MAN_PAGES = $(wildcard man/*.[1-8])

CHECK_GROUPS += install

# Installed as root into a folder the loader searches, the library's name
# goes into the loader's cache (plain ldconfig); any other PREFIX gets a
# note instead: `ldconfig DIR` would add a scratch folder to the system's
# cache for good (mk/ld-searched.sh says which folders are searched).
#
# The directories install creates are recorded in $(INSTALL_RECORD), so
# that uninstall removes those, once empty, and never one that was there
# before (mk/install-dirs.sh).
INSTALL_RECORD = $(PREFIX)/share/lbshim/installed-dirs
MAN_DIRS = $(sort $(foreach m,$(MAN_PAGES),$(MANDIR)/man$(subst .,,$(suffix $(m)))))

install: all
	sh mk/install-dirs.sh make "$(DESTDIR)" "$(INSTALL_RECORD)" \
	  "$(LIBDIR)" "$(BINDIR)" "$(INCDIR)" $(MAN_DIRS:%="%") \
	  "$(dir $(INSTALL_RECORD))"
	install -m 0755 $(BUILD)/liblbshim.so $(DESTDIR)$(LIBDIR)/liblbshim.so
	if [ -e $(BUILD)/lbtrace ]; then install -m 0755 $(BUILD)/lbtrace $(DESTDIR)$(BINDIR)/lbtrace; fi
	install -m 0644 $(PUBLIC_HEADERS) $(DESTDIR)$(INCDIR)/
	for m in $(MAN_PAGES); do \
	  s=$${m##*.}; install -m 0644 $$m $(DESTDIR)$(MANDIR)/man$$s/; done
	@if [ -z "$(DESTDIR)" ]; then \
	  if sh mk/ld-searched.sh "$(LIBDIR)"; then \
	    if [ "$$(id -u)" = 0 ]; then ldconfig && echo "ldconfig: done"; fi; \
	  else \
	    echo "note: $(LIBDIR) is not in the loader's path; use LD_PRELOAD=$(LIBDIR)/liblbshim.so"; \
	  fi; \
	fi

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/liblbshim.so $(DESTDIR)$(BINDIR)/lbtrace
	rm -f $(addprefix $(DESTDIR)$(INCDIR)/,$(notdir $(PUBLIC_HEADERS)))
	for m in $(MAN_PAGES); do s=$${m##*.}; \
	  rm -f $(DESTDIR)$(MANDIR)/man$$s/$$(basename $$m); done
	sh mk/install-dirs.sh remove "$(DESTDIR)" "$(INSTALL_RECORD)"
	@# ours, also without a record (already gone after the line above)
	@if [ -d "$(DESTDIR)$(INCDIR)" ]; then rmdir "$(DESTDIR)$(INCDIR)" 2>/dev/null || :; fi

check-install: all $(SHIMT)/prog_threads $(FAKE_DIR)/libamdhip64.so.5
	@BUILD=$(BUILD) sh mk/run-tests.sh install $(BUILD)/results \
	  tests/shim/install_test.sh tests/shim/deps_test.sh
