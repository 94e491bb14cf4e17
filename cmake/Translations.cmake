# Translations: English in the sources, translations/waterline_<lang>.ts beside them.
#
#   scripts/build waterline_lupdate   refreshes the .ts files from every tr()/translate() under src/
#                                     (new strings arrive "unfinished", removed ones are dropped)
#
# lrelease turns them into .qm files that are embedded in waterline_appcore under
# :/i18n, so both binaries (and the tests) carry them and no install path is needed.
# tests/packaging/tst_translations runs the same lupdate into a temporary copy and
# fails on any string left untranslated.

set(WATERLINE_TS_FILES ${PROJECT_SOURCE_DIR}/translations/waterline_zh_CN.ts)
# English needs no translation, only its plural forms ("1 message", "343 messages" for "%n message(s)").
set(WATERLINE_PLURALS_TS ${PROJECT_SOURCE_DIR}/translations/waterline_en.ts)

# Every source file under src/ is scanned, whichever target it belongs to.
file(GLOB_RECURSE WATERLINE_I18N_SOURCES CONFIGURE_DEPENDS
    ${PROJECT_SOURCE_DIR}/src/*.cpp ${PROJECT_SOURCE_DIR}/src/*.h)
list(SORT WATERLINE_I18N_SOURCES)
set(WATERLINE_I18N_INCLUDES ${PROJECT_SOURCE_DIR}/src/engine ${PROJECT_SOURCE_DIR}/src/ui ${PROJECT_SOURCE_DIR}/src/app)
# No source locations in the .ts: line numbers would churn on every edit and conflict in merges.
set(WATERLINE_LUPDATE_OPTIONS -no-obsolete -locations none)

qt_add_lupdate(
    TS_FILES ${WATERLINE_TS_FILES}
    SOURCES ${WATERLINE_I18N_SOURCES}
    INCLUDE_DIRECTORIES ${WATERLINE_I18N_INCLUDES}
    LUPDATE_TARGET waterline_lupdate
    NO_GLOBAL_TARGET
    OPTIONS ${WATERLINE_LUPDATE_OPTIONS})
qt_add_lupdate(
    TS_FILES ${WATERLINE_PLURALS_TS}
    SOURCES ${WATERLINE_I18N_SOURCES}
    INCLUDE_DIRECTORIES ${WATERLINE_I18N_INCLUDES}
    LUPDATE_TARGET waterline_lupdate_plurals
    NO_GLOBAL_TARGET
    OPTIONS ${WATERLINE_LUPDATE_OPTIONS} -pluralonly)
add_dependencies(waterline_lupdate waterline_lupdate_plurals)

# The same scan, as an lupdate argument file, for the completeness test.
set(_wl_lst "")
foreach(dir IN LISTS WATERLINE_I18N_INCLUDES)
    string(APPEND _wl_lst "-I${dir}\n")
endforeach()
foreach(file IN LISTS WATERLINE_I18N_SOURCES)
    string(APPEND _wl_lst "${file}\n")
endforeach()
set(WATERLINE_LUPDATE_LIST ${CMAKE_BINARY_DIR}/i18n/lupdate-sources.lst)
file(CONFIGURE OUTPUT ${WATERLINE_LUPDATE_LIST} CONTENT "${_wl_lst}")

set_source_files_properties(${WATERLINE_TS_FILES} ${WATERLINE_PLURALS_TS} PROPERTIES OUTPUT_LOCATION ${CMAKE_BINARY_DIR}/i18n)
qt_add_lrelease(
    TS_FILES ${WATERLINE_TS_FILES} ${WATERLINE_PLURALS_TS}
    QM_FILES_OUTPUT_VARIABLE WATERLINE_QM_FILES
    LRELEASE_TARGET waterline_lrelease
    NO_GLOBAL_TARGET
    OPTIONS -nounfinished)
qt_add_resources(waterline_appcore waterline_translations
    PREFIX /i18n
    BASE ${CMAKE_BINARY_DIR}/i18n
    FILES ${WATERLINE_QM_FILES})
add_dependencies(waterline_appcore waterline_lrelease)
