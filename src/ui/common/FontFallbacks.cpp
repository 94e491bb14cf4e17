#include "common/FontFallbacks.h"

#include "UiLogging.h"

#include <QApplication>
#include <QFontDatabase>
#include <QFontInfo>
#include <QLocale>

using namespace Qt::StringLiterals;

namespace wl::FontFallbacks {

namespace {

// The regions of the Noto CJK faces ("Noto Sans CJK SC"...); the first is the default.
constexpr const char16_t *kCjkRegions[] = {u"SC", u"TC", u"HK", u"JP", u"KR"};
// Colour emoji fonts, best first; one is enough.
constexpr const char16_t *kEmojiFamilies[] = {u"Noto Color Emoji", u"Twemoji", u"JoyPixels", u"Symbola"};

QString cjkRegionFor(const QLocale &locale)
{
    switch (locale.language()) {
    case QLocale::Japanese:
        return u"JP"_s;
    case QLocale::Korean:
        return u"KR"_s;
    case QLocale::Chinese:
        if (locale.territory() == QLocale::HongKong || locale.territory() == QLocale::Macao)
            return u"HK"_s;
        if (locale.script() == QLocale::TraditionalChineseScript || locale.territory() == QLocale::Taiwan)
            return u"TC"_s;
        return u"SC"_s;
    default:
        return u"SC"_s;
    }
}

} // namespace

QStringList families(const QStringList &available, const QLocale &locale, bool monospaced)
{
    QStringList regions{cjkRegionFor(locale)};
    for (const char16_t *region : kCjkRegions) {
        if (!regions.contains(QStringView(region)))
            regions << QString::fromUtf16(region);
    }
    QStringList out;
    auto addIfInstalled = [&](const QString &family) {
        if (available.contains(family) && !out.contains(family))
            out << family;
    };
    for (const QString &region : std::as_const(regions)) {
        if (monospaced)
            addIfInstalled(u"Noto Sans Mono CJK "_s + region);
        addIfInstalled(u"Noto Sans CJK "_s + region);
    }
    for (const char16_t *family : kEmojiFamilies) {
        const QString name = QString::fromUtf16(family);
        if (available.contains(name)) {
            out << name;
            break;
        }
    }
    return out;
}

QFont withFallbacks(const QFont &font)
{
    const QFontInfo info(font);
    QStringList list{font.families().isEmpty() ? font.family() : font.families().constFirst()};
    // The face the first family resolves to, when it is an alias ("Monospace" -> "DejaVu Sans Mono").
    if (!info.family().isEmpty() && !list.contains(info.family()))
        list << info.family();
    QStringList extra = families(QFontDatabase::families(), QLocale(), info.fixedPitch());
    // A fixed-pitch face covers fewer symbols than the proportional one (DejaVu Sans has emoticons
    // DejaVu Sans Mono lacks): better a wider glyph than a box.
    if (info.fixedPitch())
        extra << QFontInfo(QFontDatabase::systemFont(QFontDatabase::GeneralFont)).family();
    for (const QString &family : std::as_const(extra)) {
        if (!family.isEmpty() && !list.contains(family))
            list << family;
    }
    QFont out = font;
    out.setFamilies(list);
    return out;
}

void applyToApplication()
{
    const QFont current = QApplication::font();
    const QFont font = withFallbacks(current);
    if (font.families() == current.families())
        return;
    QApplication::setFont(font);
    qCDebug(lcUi) << "font families:" << font.families();
}

} // namespace wl::FontFallbacks
