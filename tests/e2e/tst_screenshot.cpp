#include <QImage>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace Qt::StringLiterals;

// Runs `waterline --screenshot` under xvfb-run and checks the PNG it writes.
class TestScreenshot : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void screenshotUnderXvfb();
    void badWorkspaceIsRefused();
    void sessionOptionOpensTheSession_data();
    void sessionOptionOpensTheSession();
};

static QProcessEnvironment cleanEnvironment(const QTemporaryDir &home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"QT_QPA_PLATFORM"_s);  // the real xcb platform, under Xvfb
    env.insert(u"XDG_CONFIG_HOME"_s, home.filePath(u"config"_s));
    env.insert(u"XDG_DATA_HOME"_s, home.filePath(u"data"_s));
    return env;
}

void TestScreenshot::screenshotUnderXvfb()
{
    const QString xvfbRun = QStandardPaths::findExecutable(u"xvfb-run"_s);
    QVERIFY2(!xvfbRun.isEmpty(), "xvfb-run is part of the build environment (package xvfb)");
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QString png = home.filePath(u"shot.png"_s);

    QProcess app;
    app.setProcessEnvironment(cleanEnvironment(home));
    app.setProcessChannelMode(QProcess::MergedChannels);
    app.start(xvfbRun, {u"-a"_s, u"-s"_s, u"-screen 0 1600x1000x24"_s,
                        QStringLiteral(WATERLINE_BIN_DIR "/waterline"), u"--screenshot"_s, png});
    QVERIFY2(app.waitForFinished(90000), "waterline --screenshot did not exit");
    QVERIFY2(app.exitStatus() == QProcess::NormalExit && app.exitCode() == 0, app.readAll().constData());

    const QImage image(png);
    QVERIFY2(!image.isNull(), "the screenshot is not a readable PNG");
    // A fresh start has no saved geometry: the window opens at its default size.
    QCOMPARE(image.size(), QSize(1400, 900));
    std::set<QRgb> colours;
    for (int y = 0; y < image.height() && colours.size() < 16; y += 7)
        for (int x = 0; x < image.width() && colours.size() < 16; x += 7)
            colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() >= 16, "the screenshot is (nearly) a single colour");
}

void TestScreenshot::badWorkspaceIsRefused()
{
    QTemporaryDir home;
    QProcess app;
    QProcessEnvironment env = cleanEnvironment(home);
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    app.setProcessEnvironment(env);
    app.start(QStringLiteral(WATERLINE_BIN_DIR "/waterline"), {u"--workspace"_s, home.filePath(u"does-not-exist"_s)});
    QVERIFY(app.waitForFinished(30000));
    QCOMPARE(app.exitCode(), 2);
    QVERIFY(app.readAllStandardError().contains("is not a folder"));
}

void TestScreenshot::sessionOptionOpensTheSession_data()
{
    QTest::addColumn<QString>("option");
    // QApplication takes --session for itself (session management): Waterline reads it first.
    QTest::newRow("--session ID") << u"--session"_s;
    QTest::newRow("--open ID") << u"--open"_s;
}

void TestScreenshot::sessionOptionOpensTheSession()
{
    QFETCH(QString, option);
    const QString xvfbRun = QStandardPaths::findExecutable(u"xvfb-run"_s);
    QVERIFY(!xvfbRun.isEmpty());
    QTemporaryDir home;
    const QString db = home.filePath(u"sessions.db"_s);
    QProcess import;
    import.setProcessEnvironment(cleanEnvironment(home));
    import.start(QStringLiteral(WATERLINE_BIN_DIR "/waterline-cli"),
                 {u"import"_s, u"--db"_s, db, QStringLiteral(WATERLINE_TEST_DATA "/replay/openai-chat/fncall-llm-message.json")});
    QVERIFY(import.waitForFinished(60000));
    QCOMPARE(import.exitCode(), 0);
    const QString id = QString::fromUtf8(import.readAllStandardOutput()).trimmed().split(u'\n').constLast().trimmed();
    QVERIFY(!id.isEmpty());

    QProcess app;
    app.setProcessEnvironment(cleanEnvironment(home));
    app.setProcessChannelMode(QProcess::MergedChannels);
    app.start(xvfbRun, {u"-a"_s, QStringLiteral(WATERLINE_BIN_DIR "/waterline"), u"--db"_s, db, option, id, u"--screenshot"_s,
                        home.filePath(u"shot.png"_s)});
    QVERIFY2(app.waitForFinished(90000), "waterline did not exit");
    QVERIFY2(app.exitCode() == 0, app.readAll().constData());
    // The session was opened: the window remembers it as the one used last.
    QFile settings(home.filePath(u"config/Waterline/waterline.conf"_s));
    QVERIFY2(settings.open(QIODevice::ReadOnly), qPrintable(settings.fileName()));
    QVERIFY2(settings.readAll().contains(QByteArray("last=" + id.toUtf8())), "the session given on the command line was not opened");
}

QTEST_GUILESS_MAIN(TestScreenshot)
#include "tst_screenshot.moc"
