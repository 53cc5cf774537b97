# SPDX-License-Identifier: GPL-2.0-or-later
# `cpack -G DEB` in a build tree: a Debian package of what `cmake --install`
# installs (issue 16 item 4):
#   /usr/bin/iwarpscope
#   /usr/share/man/man1/iwarpscope.1.gz
#   <Wireshark's global plugin directory>/epan/iwarpscope.so, the directory
#     the Wireshark found at configure time names (WiresharkConfig.cmake:
#     /usr/lib/x86_64-linux-gnu/wireshark/plugins/4.0 on Debian 12)
#   /usr/share/doc/iwarpscope/copyright
# Depends come from dpkg-shlibdeps on the binaries (libc6, libpcap0.8 and,
# with the plugin, libwireshark16: the soname of the Wireshark series the
# plugin was built for, which is the one that can load it).
# tests/package/package_test.sh builds and inspects the package.
set(CPACK_GENERATOR "DEB" CACHE STRING "cpack's default generator")
set(CPACK_PACKAGE_NAME "iwarpscope")
set(CPACK_PACKAGE_VENDOR "iwarpscope")
set(CPACK_PACKAGE_CONTACT "iwarpscope developers <iwarpscope@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "iWARP (MPA/DDP/RDMAP over TCP) analyser and Wireshark plugin")
# The extended description (CPack puts the summary above it and indents
# each line; "." is an empty one).
string(JOIN "\n" CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "iwarpscope reads pcap/pcapng captures (or a live interface), reassembles TCP,"
  "decodes the MPA handshake, markers and CRC, every DDP and RDMAP message, and"
  "reports per queue pair the RDMA operations with their frames, latency and"
  "where their time went, as text, JSON, CSV or one HTML report."
  "."
  "The Wireshark plugin (iwarp.mpa, iwarp.ddp, iwarp.rdmap, tshark -z iwarp,ops)"
  "uses the same decoding core, so both agree on every number.")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "net")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "tshark | wireshark")
# The plugin's directory is Wireshark's absolute one: install it there
# inside the package's tree, not on the build machine.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")

# Debian's copyright file (policy 12.5): the licence in full is in
# /usr/share/common-licenses/GPL-2.
set(_copyright "${PROJECT_BINARY_DIR}/copyright")
file(WRITE "${_copyright}"
"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: iwarpscope

Files: *
Copyright: the iwarpscope developers
License: GPL-2.0-or-later
 This program is free software; you can redistribute it and/or modify it under
 the terms of the GNU General Public License as published by the Free Software
 Foundation; either version 2 of the License, or (at your option) any later
 version.
 .
 On Debian systems, the complete text of the GNU General Public License version
 2 can be found in /usr/share/common-licenses/GPL-2.
")
install(FILES "${_copyright}" DESTINATION share/doc/iwarpscope)

include(CPack)
