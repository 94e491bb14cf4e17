#include "FakeLlmServer.h"
#include "settings/FirstRunPanel.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

class TestFirstRunPanel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void prefilledWithOllama();
    void probe_data();
    void probe();
    void probeUsesTheTypedAddress();
    void serverWithoutModels();
    void badAddress();
    void buttonsLeadSomewhere();
    void screenshot();
};

void TestFirstRunPanel::initTestCase()
{
    qputenv("WATERLINE_NO_KEYCHAIN", "1");
}

void TestFirstRunPanel::prefilledWithOllama()
{
    FirstRunPanel panel;
    QCOMPARE(panel.addressEdit()->text(), u"http://127.0.0.1:11434/v1"_s);
    QCOMPARE(panel.state(), FirstRunPanel::State::NotChecked);
    QVERIFY(!panel.statusText().isEmpty());
    QVERIFY(panel.checkButton()->isEnabled());
    QVERIFY(panel.checkButton()->isDefault());
}

void TestFirstRunPanel::probe_data()
{
    QTest::addColumn<bool>("serverUp");
    QTest::newRow("reachable") << true;
    QTest::newRow("closed port") << false;
}

void TestFirstRunPanel::probe()
{
    QFETCH(bool, serverUp);
    FakeLlmServer server;
    QVERIFY(server.start());
    server.setModels({u"qwen3:8b"_s, u"llama3.1:8b"_s});
    QUrl base = server.openAiBaseUrl();
    if (!serverUp) {
        QTcpServer closed;
        QVERIFY(closed.listen(QHostAddress::LocalHost, 0));
        base.setPort(closed.serverPort());
        closed.close();
    }
    ProviderProfile profile = ProviderProfile::defaultProfile();
    profile.baseUrl = base;
    FirstRunPanel panel;
    panel.setProfile(profile);
    QSignalSpy reachable(&panel, &FirstRunPanel::providerReachable);
    QTest::mouseClick(panel.checkButton(), Qt::LeftButton);
    QCOMPARE(panel.state(), FirstRunPanel::State::Checking);
    QVERIFY(!panel.checkButton()->isEnabled());   // no double probes
    QVERIFY(panel.statusText().contains(u"/v1/models"_s));
    QVERIFY(reachable.wait(10000));
    QCOMPARE(reachable.size(), 1);
    QCOMPARE(reachable.at(0).at(0).toBool(), serverUp);
    QVERIFY(panel.checkButton()->isEnabled());
    if (serverUp) {
        QCOMPARE(panel.state(), FirstRunPanel::State::Reachable);
        QCOMPARE(panel.models(), (QStringList{u"llama3.1:8b"_s, u"qwen3:8b"_s}));
        QVERIFY2(panel.statusText().startsWith(u"Reachable"_s) && panel.statusText().contains(u"qwen3:8b"_s),
                 qPrintable(panel.statusText()));
        QCOMPARE(server.requestCount(), 1);
        QCOMPARE(server.requests().first().path, QByteArray("/v1/models"));
    } else {
        QCOMPARE(panel.state(), FirstRunPanel::State::Unreachable);
        QVERIFY(panel.models().isEmpty());
        QVERIFY2(panel.statusText().startsWith(u"Not reachable"_s)
                     && panel.statusText().contains(u"Nothing is listening at 127.0.0.1:"_s),
                 qPrintable(panel.statusText()));
        QCOMPARE(server.requestCount(), 0);
    }
}

void TestFirstRunPanel::probeUsesTheTypedAddress()
{
    FakeLlmServer server;
    QVERIFY(server.start());
    FirstRunPanel panel;
    QSignalSpy reachable(&panel, &FirstRunPanel::providerReachable);
    panel.addressEdit()->setFocus();
    panel.addressEdit()->selectAll();
    QTest::keyClicks(panel.addressEdit(), server.openAiBaseUrl().toString());
    QTest::keyClick(panel.addressEdit(), Qt::Key_Return);
    QVERIFY(reachable.wait(10000));
    QCOMPARE(reachable.at(0).at(0).toBool(), true);
    QCOMPARE(panel.profile().baseUrl, server.openAiBaseUrl());
    QCOMPARE(panel.models(), QStringList{u"fake-model"_s});
}

void TestFirstRunPanel::serverWithoutModels()
{
    FakeLlmServer server;
    QVERIFY(server.start());
    server.setModels({});
    ProviderProfile profile = ProviderProfile::defaultProfile();
    profile.baseUrl = server.openAiBaseUrl();
    FirstRunPanel panel;
    panel.setProfile(profile);
    QSignalSpy reachable(&panel, &FirstRunPanel::providerReachable);
    panel.checkAgain();
    QVERIFY(reachable.wait(10000));
    QCOMPARE(reachable.at(0).at(0).toBool(), true);
    // Reachable, and it says what to do next.
    QVERIFY2(panel.statusText().contains(u"no model"_s), qPrintable(panel.statusText()));
}

void TestFirstRunPanel::badAddress()
{
    FirstRunPanel panel;
    QSignalSpy reachable(&panel, &FirstRunPanel::providerReachable);
    panel.addressEdit()->setText(u"localhost 11434"_s);
    panel.checkAgain();
    QCOMPARE(reachable.size(), 1);
    QCOMPARE(reachable.at(0).at(0).toBool(), false);
    QCOMPARE(panel.state(), FirstRunPanel::State::Unreachable);
    QVERIFY(panel.statusText().contains(u"http://"_s));
}

void TestFirstRunPanel::buttonsLeadSomewhere()
{
    FirstRunPanel panel;
    QSignalSpy settings(&panel, &FirstRunPanel::settingsRequested);
    QSignalSpy demo(&panel, &FirstRunPanel::demoRequested);
    QSignalSpy import(&panel, &FirstRunPanel::importRequested);
    QTest::mouseClick(panel.settingsButton(), Qt::LeftButton);
    QCOMPARE(settings.size(), 1);
    QCOMPARE(demo.size(), 0);
    QTest::mouseClick(panel.demoButton(), Qt::LeftButton);
    QCOMPARE(demo.size(), 1);
    QCOMPARE(import.size(), 0);
    // Import sits next to the demo and Settings.
    QVERIFY(panel.importButton());
    QCOMPARE(panel.importButton()->parentWidget(), panel.demoButton()->parentWidget());
    QVERIFY(panel.importButton()->text().contains(u"Import"_s));
    QTest::mouseClick(panel.importButton(), Qt::LeftButton);
    QCOMPARE(import.size(), 1);
    QCOMPARE(demo.size(), 1);
    QVERIFY(panel.settingsButton()->text().contains(u"Settings"_s));
    QVERIFY(panel.demoButton()->text().contains(u"demo"_s));
    for (QPushButton *button : panel.findChildren<QPushButton *>())
        QVERIFY2(!button->objectName().isEmpty(), qPrintable(button->text()));
}

void TestFirstRunPanel::screenshot()
{
    FakeLlmServer server;
    QVERIFY(server.start());
    server.setModels({u"qwen3:8b"_s, u"llama3.1:8b"_s, u"gpt-oss:20b"_s});
    FirstRunPanel panel;
    panel.resize(1000, 680);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const QPixmap before = panel.grab();
    QVERIFY(!before.isNull());
    const QByteArray dir = qgetenv("WATERLINE_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(before.save(QString::fromLocal8Bit(dir) + u"/first-run.png"_s, "PNG"));
    // The status line changes what is drawn once a probe answers.
    ProviderProfile profile = ProviderProfile::defaultProfile();
    profile.baseUrl = server.openAiBaseUrl();
    panel.setProfile(profile);
    QSignalSpy reachable(&panel, &FirstRunPanel::providerReachable);
    panel.checkAgain();
    QVERIFY(reachable.wait(10000));
    const QPixmap after = panel.grab();
    QVERIFY(after.toImage() != before.toImage());
    if (!dir.isEmpty())
        QVERIFY(after.save(QString::fromLocal8Bit(dir) + u"/first-run-reachable.png"_s, "PNG"));
}

QTEST_MAIN(TestFirstRunPanel)
#include "tst_firstrunpanel.moc"
