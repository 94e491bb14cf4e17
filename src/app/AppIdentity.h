#pragma once

#include <QStringList>

class QCoreApplication;

namespace wl {

// Sets organisation, application name, version, desktop id and window icon; call first in main().
void setApplicationIdentity(QCoreApplication &app);

inline constexpr const char *kDesktopId = "dev.waterline.Waterline";

// The language chosen in Settings > Appearance: "system", "en" or "zh_CN". Reads the same
// QSettings key as AppSettings::language() (the UI library, which waterline-cli does not link).
QString languageSetting();

// Installs Waterline's translation (embedded under :/i18n) and Qt's own (qtbase_*.qm from
// QLibraryInfo::TranslationsPath) for `language`; "system" or empty follows QLocale::system().
// Call after setApplicationIdentity() and before any user-visible string is made.
// Returns the files that were loaded (none for English).
QStringList installTranslations(QCoreApplication &app, const QString &language);

} // namespace wl
