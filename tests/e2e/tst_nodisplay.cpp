// `waterline --version` / `--help` (and waterline-cli's) as a script or a package check runs them:
// the real binaries with no display at all. They must print and exit 0, never try to open a window.
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

struct Run
{
    bool finished = false;
    QProcess::ExitStatus status = QProcess::CrashExit;
    int exitCode = -1;
    QString out;
    QString err;
};

// `display`: empty removes DISPLAY; otherwise DISPLAY is set to it (an X server that is not there).
Run run(const QString &binary, const QStringList &arguments, const QString &display, const QTemporaryDir &home)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"QT_QPA_PLATFORM"_s); // the platform a desktop session picks: xcb, which needs a display
    env.remove(u"WAYLAND_DISPLAY"_s);
    env.remove(u"DISPLAY"_s);
    if (!display.isEmpty())
        env.insert(u"DISPLAY"_s, display);
    env.insert(u"XDG_CONFIG_HOME"_s, home.filePath(u"config"_s));
    env.insert(u"XDG_DATA_HOME"_s, home.filePath(u"data"_s));
    env.insert(u"XDG_RUNTIME_DIR"_s, home.path());
    QProcess process;
    process.setProcessEnvironment(env);
    process.setStandardInputFile(QProcess::nullDevice());
    process.start(binary, arguments);
    Run r;
    r.finished = process.waitForFinished(30000);
    if (!r.finished) {
        process.kill();
        process.waitForFinished(2000);
    }
    r.status = process.exitStatus();
    r.exitCode = process.exitCode();
    r.out = QString::fromUtf8(process.readAllStandardOutput());
    r.err = QString::fromUtf8(process.readAllStandardError());
    return r;
}

} // namespace

class TestNoDisplay : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void printsWithoutDisplay_data();
    void printsWithoutDisplay();
};

void TestNoDisplay::printsWithoutDisplay_data()
{
    QTest::addColumn<QString>("binary");
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("display");
    QTest::addColumn<QString>("expected");   // a line the output must hold

    const QString app = QStringLiteral(WATERLINE_BIN_DIR "/waterline");
    const QString cli = QStringLiteral(WATERLINE_BIN_DIR "/waterline-cli");
    const QString version = QStringLiteral(WATERLINE_VERSION);
    for (const QString &display : {QString(), u":4242"_s}) {
        const char *where = display.isEmpty() ? "no DISPLAY" : "DISPLAY with no server";
        QTest::addRow("waterline --version, %s", where) << app << QStringList{u"--version"_s} << display
                                                        << u"waterline "_s + version;
        QTest::addRow("waterline -v, %s", where) << app << QStringList{u"-v"_s} << display << u"waterline "_s + version;
        QTest::addRow("waterline --help, %s", where) << app << QStringList{u"--help"_s} << display << u"--demo"_s;
        QTest::addRow("waterline -h, %s", where) << app << QStringList{u"-h"_s} << display << u"--workspace <dir>"_s;
        QTest::addRow("waterline --help-all, %s", where) << app << QStringList{u"--help-all"_s} << display
                                                         << u"--screenshot <path>"_s;
        // Other options next to --help do not matter: help is all that is done.
        QTest::addRow("waterline --demo --help, %s", where) << app << QStringList{u"--demo"_s, u"--help"_s} << display
                                                            << u"--db <path>"_s;
        QTest::addRow("waterline-cli --version, %s", where) << cli << QStringList{u"--version"_s} << display
                                                            << u"waterline-cli "_s + version;
        QTest::addRow("waterline-cli --help, %s", where) << cli << QStringList{u"--help"_s} << display
                                                         << u"Usage: waterline-cli COMMAND [OPTIONS]"_s;
    }
}

void TestNoDisplay::printsWithoutDisplay()
{
    QFETCH(QString, binary);
    QFETCH(QStringList, arguments);
    QFETCH(QString, display);
    QFETCH(QString, expected);
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const Run r = run(binary, arguments, display, home);
    QVERIFY2(r.finished, "did not exit within 30 s");
    const QByteArray details = (u"stdout: "_s + r.out + u"\nstderr: "_s + r.err).toUtf8();
    QVERIFY2(r.status == QProcess::NormalExit, details.constData());
    QVERIFY2(r.exitCode == 0, details.constData());
    QVERIFY2(r.out.contains(expected), details.constData());
    // Nothing about a display or a platform plugin: none was needed.
    QVERIFY2(!r.err.contains(u"display"_s, Qt::CaseInsensitive), details.constData());
    QVERIFY2(!r.err.contains(u"platform plugin"_s), details.constData());
}

QTEST_GUILESS_MAIN(TestNoDisplay)
#include "tst_nodisplay.moc"
