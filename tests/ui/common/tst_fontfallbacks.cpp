#include "common/FontFallbacks.h"

#include <QApplication>
#include <QFontDatabase>
#include <QLocale>
#include <QRawFont>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

const QStringList kInstalled{u"DejaVu Sans"_s,        u"DejaVu Sans Mono"_s,     u"Noto Sans CJK JP"_s,
                             u"Noto Sans CJK SC"_s,   u"Noto Sans CJK TC"_s,     u"Noto Sans Mono CJK SC"_s,
                             u"Noto Sans Mono CJK JP"_s, u"Noto Color Emoji"_s,  u"Symbola"_s};

// Whether some family of `families` has a glyph for `ucs4`.
bool covered(const QStringList &families, char32_t ucs4)
{
    for (const QString &family : families) {
        QFont font(family);
        font.setPixelSize(16);
        if (QFontInfo(font).family() == family && QRawFont::fromFont(font).supportsCharacter(ucs4))
            return true;
    }
    return false;
}

} // namespace

class TestFontFallbacks : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void familiesFollowTheLocale_data();
    void familiesFollowTheLocale();
    void onlyInstalledFamiliesAreNamed();
    void monospacedFontsGetMonospacedCjk();
    void applicationFontKeepsItsFaceFirst();
    void installedFontsCoverCjkAndEmoji();
};

void TestFontFallbacks::familiesFollowTheLocale_data()
{
    QTest::addColumn<QString>("locale");
    QTest::addColumn<QString>("first");
    QTest::newRow("english") << u"en_GB"_s << u"Noto Sans CJK SC"_s;
    QTest::newRow("simplified chinese") << u"zh_CN"_s << u"Noto Sans CJK SC"_s;
    QTest::newRow("traditional chinese") << u"zh_TW"_s << u"Noto Sans CJK TC"_s;
    QTest::newRow("japanese") << u"ja_JP"_s << u"Noto Sans CJK JP"_s;
}

void TestFontFallbacks::familiesFollowTheLocale()
{
    QFETCH(QString, locale);
    QFETCH(QString, first);
    const QStringList families = FontFallbacks::families(kInstalled, QLocale(locale));
    QCOMPARE(families.constFirst(), first);
    // Every installed CJK face follows, then exactly one emoji font, the colour one.
    QCOMPARE(families.size(), 4);
    QVERIFY(families.contains(u"Noto Sans CJK JP"_s));
    QVERIFY(families.contains(u"Noto Sans CJK SC"_s));
    QVERIFY(families.contains(u"Noto Sans CJK TC"_s));
    QCOMPARE(families.constLast(), u"Noto Color Emoji"_s);
}

void TestFontFallbacks::onlyInstalledFamiliesAreNamed()
{
    const QStringList families = FontFallbacks::families({u"DejaVu Sans"_s, u"Noto Sans CJK KR"_s, u"Symbola"_s},
                                                         QLocale(u"en_US"_s));
    QCOMPARE(families, (QStringList{u"Noto Sans CJK KR"_s, u"Symbola"_s}));
    QVERIFY(FontFallbacks::families({u"DejaVu Sans"_s}, QLocale(u"en_US"_s)).isEmpty());
}

void TestFontFallbacks::monospacedFontsGetMonospacedCjk()
{
    const QStringList families = FontFallbacks::families(kInstalled, QLocale(u"ja_JP"_s), true);
    QCOMPARE(families.mid(0, 3),
             (QStringList{u"Noto Sans Mono CJK JP"_s, u"Noto Sans CJK JP"_s, u"Noto Sans Mono CJK SC"_s}));
    QCOMPARE(families.constLast(), u"Noto Color Emoji"_s);
}

void TestFontFallbacks::applicationFontKeepsItsFaceFirst()
{
    const QFont before = QApplication::font();
    FontFallbacks::applyToApplication();
    const QFont after = QApplication::font();
    QVERIFY(!after.families().isEmpty());
    QCOMPARE(after.families().constFirst(), before.families().isEmpty() ? before.family() : before.families().constFirst());
    QCOMPARE(after.pointSizeF(), before.pointSizeF());
    const QStringList expected = FontFallbacks::families(QFontDatabase::families(), QLocale());
    for (const QString &family : expected)
        QVERIFY2(after.families().contains(family), qPrintable(family));
    // Again: nothing changes.
    FontFallbacks::applyToApplication();
    QCOMPARE(QApplication::font().families(), after.families());
}

void TestFontFallbacks::installedFontsCoverCjkAndEmoji()
{
    // Whatever this machine has installed: when a font with the glyph exists, the list names one that has it.
    const QStringList installed = QFontDatabase::families();
    const QStringList chosen = FontFallbacks::withFallbacks(QApplication::font()).families();
    const QStringList fixed = FontFallbacks::withFallbacks(QFontDatabase::systemFont(QFontDatabase::FixedFont)).families();
    for (char32_t ucs4 : {U'\u6F22', U'\u3042', U'\uD55C', U'\U0001F600', U'\U0001F680'}) {
        if (!covered(installed, ucs4))
            continue; // no installed font has it: nothing to choose
        QVERIFY2(covered(chosen, ucs4), qPrintable(u"U+%1 in %2"_s.arg(uint(ucs4), 0, 16).arg(chosen.join(u", "))));
        QVERIFY2(covered(fixed, ucs4), qPrintable(u"U+%1 in %2"_s.arg(uint(ucs4), 0, 16).arg(fixed.join(u", "))));
    }
    // The Debian 13 build root and the package install Noto CJK: Chinese is covered there.
    if (installed.contains(u"Noto Sans CJK SC"_s))
        QVERIFY(covered(chosen, U'\u6F22'));
}

QTEST_MAIN(TestFontFallbacks)
#include "tst_fontfallbacks.moc"
