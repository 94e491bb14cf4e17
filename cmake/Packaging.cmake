# Desktop integration (desktop entry, AppStream metainfo, hicolor icons) and the
# CPack DEB package. Included from the top-level CMakeLists.txt after src/app.
#
# One package, `waterline`, holds both binaries: the engine is linked statically
# into each, so `waterline-cli` alone would save only Qt Widgets/Charts on a
# machine that, for this tool, nearly always has them; a second package would
# double the install test and the Depends bookkeeping for little gain.
include(GNUInstallDirs)

set(WATERLINE_APP_ID dev.waterline.Waterline)

# --- icons: the SVG is the source; PNGs are rendered at build time ---------
add_subdirectory(${PROJECT_SOURCE_DIR}/tools/iconrender ${CMAKE_BINARY_DIR}/tools/iconrender)

set(WATERLINE_ICON_SIZES 16 22 24 32 48 64 128 256 512)
set(WATERLINE_ICON_SVG ${PROJECT_SOURCE_DIR}/resources/icons/${WATERLINE_APP_ID}.svg)
set(WATERLINE_ICON_DIR ${CMAKE_BINARY_DIR}/icons/hicolor)
set(_wl_icon_pngs)
foreach(size IN LISTS WATERLINE_ICON_SIZES)
    list(APPEND _wl_icon_pngs ${WATERLINE_ICON_DIR}/${size}x${size}/apps/${WATERLINE_APP_ID}.png)
endforeach()
add_custom_command(
    OUTPUT ${_wl_icon_pngs}
    COMMAND waterline-iconrender ${WATERLINE_ICON_SVG} ${WATERLINE_ICON_DIR} ${WATERLINE_APP_ID} ${WATERLINE_ICON_SIZES}
    DEPENDS waterline-iconrender ${WATERLINE_ICON_SVG}
    COMMENT "Rendering the ${WATERLINE_APP_ID} icons from the SVG"
    VERBATIM)
add_custom_target(waterline_icons ALL DEPENDS ${_wl_icon_pngs})

install(FILES ${WATERLINE_ICON_SVG} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
foreach(size IN LISTS WATERLINE_ICON_SIZES)
    install(FILES ${WATERLINE_ICON_DIR}/${size}x${size}/apps/${WATERLINE_APP_ID}.png
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps)
endforeach()

# --- desktop entry and AppStream metainfo ----------------------------------
install(FILES ${PROJECT_SOURCE_DIR}/packaging/${WATERLINE_APP_ID}.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/${WATERLINE_APP_ID}.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)

# --- licence: Debian's place for it is /usr/share/doc/<package>/copyright ----
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/waterline
        RENAME copyright)

# --- CPack: a Debian package installed under /usr ---------------------------
# `install` and cpack must not build the whole tree (tests, benchmarks) first:
# scripts/package builds the installed targets itself.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME waterline)
set(CPACK_PACKAGE_VENDOR "The Waterline developers")
set(CPACK_PACKAGE_CONTACT "The Waterline developers <dev@waterline.dev>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "Waterline runs an LLM agent (an LLM with tools) in a workspace folder and makes
its context compaction visible and tunable: a four-tier compaction engine, a
timeline of context use against the tier thresholds, the structured anchors as
they merge across summaries, offloaded tool results, and threshold sliders that
replay a session under a new policy. waterline-cli imports, exports, simulates
and runs sessions headless.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR})       # the .deb lands in build/

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)            # waterline_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE https://waterline.dev)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)             # Qt, KF6, qtkeychain libraries from the ELF files
# What dpkg-shlibdeps cannot see, because Qt loads it as a plugin at run time.
# (Debian 13 ships the xcb and offscreen platform plugins in libqt6gui6, which
# shlibdeps finds through the binaries; qt6-qpa-plugins holds only vnc and tuio.)
# bubblewrap: the bash tool runs every command in bwrap and refuses without it.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6sql6-sqlite, bubblewrap")
# Useful, not required: SVG theme icons, Qt's own translations, native Wayland, and the fonts
# the application font falls back to (FontFallbacks) so Chinese, Japanese, Korean and emoji in tool
# output and the Chinese translation show no missing-glyph boxes. (Waterline's own icons are drawn
# by Qt SVG itself and need no plugin.)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "qt6-svg-plugins, qt6-translations-l10n, qt6-wayland, fonts-noto-cjk, fonts-noto-color-emoji")

include(CPack)
