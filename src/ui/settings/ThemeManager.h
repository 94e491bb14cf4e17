#pragma once

#include "settings/AppSettings.h"

#include <QObject>
#include <QPalette>
#include <QPointer>

namespace wl {

// Applies the theme to the whole application: "light" and "dark" set the
// Fusion style and a palette of their own; "system" puts back the style and
// palette the application started with. Widgets that paint with palette
// colours follow through QEvent::PaletteChange. Constructing it also gives the
// application font its CJK and emoji fallbacks (FontFallbacks).
class ThemeManager : public QObject
{
    Q_OBJECT

public:
    // Remembers the current style and palette as "the system's": construct it
    // before anything else changes them (right after the QApplication).
    explicit ThemeManager(QObject *parent = nullptr);

    // Follows `settings`: applies its theme now and whenever it changes.
    void follow(AppSettings *settings);

    void apply(AppSettings::Theme theme);
    AppSettings::Theme current() const { return m_current; }

    static QPalette lightPalette();
    static QPalette darkPalette();

Q_SIGNALS:
    void themeApplied(wl::AppSettings::Theme theme);

private:
    QString m_systemStyle;
    QPalette m_systemPalette;
    AppSettings::Theme m_current = AppSettings::Theme::System;
    QPointer<AppSettings> m_settings;
};

} // namespace wl
