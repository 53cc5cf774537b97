# SPDX-License-Identifier: GPL-2.0-or-later
# cmake -DPLUGIN=path/to/iwarpscope.so -DWS_VERSION=4.0 -P install-user.cmake
# Copies the plugin into the personal plugin directory of whoever runs it
# (HOME is read when the target runs, not when CMake configured the build).
if(NOT DEFINED ENV{HOME} OR "$ENV{HOME}" STREQUAL "")
  message(FATAL_ERROR "HOME is not set")
endif()
set(_dir "$ENV{HOME}/.local/lib/wireshark/plugins/${WS_VERSION}/epan")
file(MAKE_DIRECTORY "${_dir}")
file(COPY "${PLUGIN}" DESTINATION "${_dir}")
message(STATUS "Installed ${PLUGIN} into ${_dir}")
execute_process(COMMAND id -u OUTPUT_VARIABLE _uid OUTPUT_STRIP_TRAILING_WHITESPACE)
if(_uid STREQUAL "0")
  message(WARNING "Wireshark ignores personal plugins when it runs as root: "
                  "use cmake --install (global plugin directory) instead.")
endif()
