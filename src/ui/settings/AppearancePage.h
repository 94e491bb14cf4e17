#pragma once

#include "settings/AppSettings.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace wl {

// The Appearance page: the theme (previewed live by the dialog) and the
// interface language (used from the next start).
class AppearancePage : public QWidget
{
    Q_OBJECT

public:
    explicit AppearancePage(QWidget *parent = nullptr);

    AppSettings::Theme theme() const;
    void setTheme(AppSettings::Theme theme);
    QString language() const;
    // Also remembers it as the language in use, for the restart note.
    void setLanguage(const QString &language);

    QComboBox *themeCombo() const { return m_theme; }
    QComboBox *languageCombo() const { return m_language; }
    QLabel *languageNote() const { return m_languageNote; }

Q_SIGNALS:
    void themeChosen(wl::AppSettings::Theme theme);

private:
    void updateLanguageNote();

    QComboBox *m_theme = nullptr;
    QComboBox *m_language = nullptr;
    QLabel *m_languageNote = nullptr;
    QString m_languageInUse;
};

} // namespace wl
