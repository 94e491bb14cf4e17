// The desktop integration files agree on one reverse-DNS id, and the icons are rendered.
#include "AppIdentity.h"

#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QSvgRenderer>
#include <QTest>
#include <QXmlStreamReader>

using namespace Qt::StringLiterals;

namespace {

const QString kId = QString::fromLatin1(wl::kDesktopId);

QString sourceFile(const QString &relative)
{
    return QStringLiteral(WATERLINE_SOURCE_DIR) + u'/' + relative;
}

// The [Desktop Entry] group's untranslated keys.
QHash<QString, QString> readDesktopEntry(const QString &path)
{
    QHash<QString, QString> keys;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return keys;
    bool inEntry = false;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.startsWith(u'['))
            inEntry = line == u"[Desktop Entry]";
        else if (inEntry && line.contains(u'=') && !line.startsWith(u'#'))
            keys.insert(line.section(u'=', 0, 0), line.section(u'=', 1));
    }
    return keys;
}

} // namespace

class TestDesktopIntegration : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void iconRendered_data();
    void iconRendered();
    void scalableIconIsValidSvg();
    void desktopEntryUsesTheId();
    void metainfoUsesTheId();
    void applicationUsesTheId();
};

void TestDesktopIntegration::iconRendered_data()
{
    QTest::addColumn<int>("size");
    const QStringList sizes = QStringLiteral(WATERLINE_ICON_SIZES).split(u' ');
    QCOMPARE(sizes.size(), 9);
    for (const QString &size : sizes)
        QTest::newRow(qPrintable(size + u"px")) << size.toInt();
}

void TestDesktopIntegration::iconRendered()
{
    QFETCH(int, size);
    const QString path = QStringLiteral(WATERLINE_ICON_DIR "/%1x%1/apps/").arg(size) + kId + u".png"_s;
    QImage image;
    QVERIFY2(image.load(path, "PNG"), qPrintable(u"cannot load "_s + path));
    QCOMPARE(image.size(), QSize(size, size));
    QVERIFY(image.hasAlphaChannel());

    // Drawn, not blank: most pixels opaque (the rounded square), corners transparent, several colours.
    image = image.convertToFormat(QImage::Format_ARGB32);
    int opaque = 0;
    QSet<QRgb> colours;
    for (int y = 0; y < size; ++y) {
        for (int x = 0; x < size; ++x) {
            const QRgb px = image.pixel(x, y);
            if (qAlpha(px) > 200) {
                ++opaque;
                colours.insert(px);
            }
        }
    }
    QVERIFY2(opaque > size * size / 2, qPrintable(u"only %1 of %2 pixels are opaque"_s.arg(opaque).arg(size * size)));
    QCOMPARE(qAlpha(image.pixel(0, 0)), 0);
    QVERIFY2(colours.size() >= 4, qPrintable(u"only %1 colours"_s.arg(colours.size())));
}

void TestDesktopIntegration::scalableIconIsValidSvg()
{
    QSvgRenderer renderer(sourceFile(u"resources/icons/"_s + kId + u".svg"_s));
    QVERIFY(renderer.isValid());
    QCOMPARE(renderer.viewBoxF().width(), renderer.viewBoxF().height());
}

void TestDesktopIntegration::desktopEntryUsesTheId()
{
    const QString path = sourceFile(u"packaging/"_s + kId + u".desktop"_s);
    QVERIFY2(QFile::exists(path), qPrintable(path));
    const QHash<QString, QString> entry = readDesktopEntry(path);
    QCOMPARE(entry.value(u"Type"_s), u"Application"_s);
    QCOMPARE(entry.value(u"Icon"_s), kId);
    QCOMPARE(entry.value(u"Exec"_s).section(u' ', 0, 0), u"waterline"_s);
    QCOMPARE(entry.value(u"StartupWMClass"_s), u"waterline"_s);   // QCoreApplication::applicationName()
    QVERIFY(!entry.value(u"Name"_s).isEmpty());
}

void TestDesktopIntegration::metainfoUsesTheId()
{
    QFile file(sourceFile(u"packaging/"_s + kId + u".metainfo.xml"_s));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    QString id, launchable, release;
    QStringList binaries;
    while (xml.readNext() != QXmlStreamReader::Invalid && !xml.atEnd()) {
        if (!xml.isStartElement())
            continue;
        if (xml.name() == u"id")
            id = xml.readElementText();
        else if (xml.name() == u"launchable")
            launchable = xml.readElementText();
        else if (xml.name() == u"binary")
            binaries.append(xml.readElementText());
        else if (xml.name() == u"release" && release.isEmpty())
            release = xml.attributes().value(u"version").toString();
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(id, kId);
    QCOMPARE(launchable, kId + u".desktop"_s);
    QCOMPARE(binaries, QStringList({u"waterline"_s, u"waterline-cli"_s}));
    QCOMPARE(release, QStringLiteral(WATERLINE_VERSION));   // the newest release is this version
}

void TestDesktopIntegration::applicationUsesTheId()
{
    wl::setApplicationIdentity(*QCoreApplication::instance());
    QCOMPARE(QGuiApplication::desktopFileName(), kId);
    QCOMPARE(QCoreApplication::applicationName(), u"waterline"_s);
    QCOMPARE(QCoreApplication::applicationVersion(), QStringLiteral(WATERLINE_VERSION));
}

QTEST_MAIN(TestDesktopIntegration)
#include "tst_desktopintegration.moc"
