#include "AppearancePage.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

AppearancePage::AppearancePage(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(u"appearancePage"_s);
    auto *layout = new QVBoxLayout(this);
    auto *box = new QGroupBox(tr("Appearance"), this);
    auto *form = new QFormLayout(box);

    m_theme = new QComboBox(box);
    m_theme->setObjectName(u"themeCombo"_s);
    m_theme->addItem(tr("Follow the system"), int(AppSettings::Theme::System));
    m_theme->addItem(tr("Light"), int(AppSettings::Theme::Light));
    m_theme->addItem(tr("Dark"), int(AppSettings::Theme::Dark));
    form->addRow(tr("&Theme:"), m_theme);

    m_language = new QComboBox(box);
    m_language->setObjectName(u"languageCombo"_s);
    m_language->addItem(tr("System language"), u"system"_s);
    // Language names in their own language: a user who cannot read the current one still finds theirs.
    m_language->addItem(u"English"_s, u"en"_s);
    m_language->addItem(u"\u7b80\u4f53\u4e2d\u6587"_s, u"zh_CN"_s);
    form->addRow(tr("&Language:"), m_language);
    m_languageNote = new QLabel(box);
    m_languageNote->setObjectName(u"languageNote"_s);
    m_languageNote->setWordWrap(true);
    form->addRow(QString(), m_languageNote);
    layout->addWidget(box);
    layout->addStretch(1);

    connect(m_theme, &QComboBox::currentIndexChanged, this, [this] { Q_EMIT themeChosen(theme()); });
    connect(m_language, &QComboBox::currentIndexChanged, this, &AppearancePage::updateLanguageNote);
    m_languageInUse = u"system"_s;
    updateLanguageNote();
}

AppSettings::Theme AppearancePage::theme() const
{
    return AppSettings::Theme(m_theme->currentData().toInt());
}

void AppearancePage::setTheme(AppSettings::Theme theme)
{
    m_theme->setCurrentIndex(m_theme->findData(int(theme)));
}

QString AppearancePage::language() const
{
    return m_language->currentData().toString();
}

void AppearancePage::setLanguage(const QString &language)
{
    const int index = m_language->findData(language);
    m_languageInUse = index >= 0 ? language : u"system"_s;
    m_language->setCurrentIndex(std::max(index, 0));
    updateLanguageNote();
}

void AppearancePage::updateLanguageNote()
{
    if (language() == m_languageInUse)
        m_languageNote->setText(tr("A new language takes effect when Waterline restarts."));
    else
        m_languageNote->setText(tr("<b>Restart Waterline</b> to use the new language."));
}

} // namespace wl
