#include "ThemeManager.h"

#include "UiLogging.h"

#include "common/FontFallbacks.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

QPalette makePalette(const QColor &window, const QColor &text, const QColor &base, const QColor &alternate,
                     const QColor &button, const QColor &highlight, const QColor &link, const QColor &disabledText)
{
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, alternate);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabledText);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, link);
    p.setColor(QPalette::LinkVisited, link.darker(120));
    p.setColor(QPalette::Accent, highlight);
    p.setColor(QPalette::Light, button.lighter(150));
    p.setColor(QPalette::Midlight, button.lighter(125));
    p.setColor(QPalette::Mid, button.darker(130));
    p.setColor(QPalette::Dark, button.darker(200));
    p.setColor(QPalette::Shadow, Qt::black);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, button.darker(110));
    p.setColor(QPalette::Disabled, QPalette::HighlightedText, disabledText);
    return p;
}

} // namespace

ThemeManager::ThemeManager(QObject *parent)
    : QObject(parent)
    , m_systemStyle(QApplication::style() ? QApplication::style()->name() : QString())
    , m_systemPalette(QApplication::palette())
{
    FontFallbacks::applyToApplication();
}

void ThemeManager::follow(AppSettings *settings)
{
    if (m_settings)
        m_settings->disconnect(this);
    m_settings = settings;
    if (!settings)
        return;
    connect(settings, &AppSettings::changed, this, [this](AppSettings::Key key) {
        if (key == AppSettings::Key::Theme && m_settings)
            apply(m_settings->theme());
    });
    apply(settings->theme());
}

QPalette ThemeManager::lightPalette()
{
    return makePalette(QColor(0xef, 0xf0, 0xf1), QColor(0x23, 0x26, 0x29), Qt::white, QColor(0xf5, 0xf6, 0xf7),
                       QColor(0xe8, 0xe9, 0xea), QColor(0x2a, 0x7a, 0xd0), QColor(0x1d, 0x63, 0xb8),
                       QColor(0x9a, 0x9d, 0xa0));
}

QPalette ThemeManager::darkPalette()
{
    return makePalette(QColor(0x2a, 0x2e, 0x32), QColor(0xe6, 0xe8, 0xea), QColor(0x1e, 0x21, 0x24),
                       QColor(0x26, 0x2a, 0x2e), QColor(0x33, 0x38, 0x3d), QColor(0x3d, 0x8e, 0xe6),
                       QColor(0x6c, 0xb4, 0xff), QColor(0x7f, 0x84, 0x89));
}

void ThemeManager::apply(AppSettings::Theme theme)
{
    auto *app = qobject_cast<QApplication *>(QCoreApplication::instance());
    if (!app) {
        qCWarning(lcUi) << "ThemeManager needs a QApplication";
        return;
    }
    switch (theme) {
    case AppSettings::Theme::System:
        if (!m_systemStyle.isEmpty() && QApplication::style()->name() != m_systemStyle)
            QApplication::setStyle(QStyleFactory::create(m_systemStyle));
        QApplication::setPalette(m_systemPalette);
        break;
    case AppSettings::Theme::Light:
    case AppSettings::Theme::Dark:
        if (QApplication::style()->name().compare(u"fusion"_s, Qt::CaseInsensitive) != 0)
            QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
        QApplication::setPalette(theme == AppSettings::Theme::Dark ? darkPalette() : lightPalette());
        break;
    }
    m_current = theme;
    Q_EMIT themeApplied(theme);
}

} // namespace wl
