// ProviderConnection against the fake LLM server and a port nothing listens on: which profile a
// session runs on, clients built once the key is known, reachability, and a profile chosen while
// a run is busy applied only when it ends.
#include "FakeLlmServer.h"
#include "workbench/ProviderConnection.h"
#include "llm/ChatClient.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

class TestProviderConnection : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void sessionProfileOrDefault();
    void clientsFollowTheProfile();
    void reachabilityFollowsTheServer();
    void profileWaitsForTheRunToEnd();

private:
    ProviderProfile profileFor(const FakeLlmServer &server, const QString &name) const
    {
        ProviderProfile p;
        p.name = name;
        p.baseUrl = server.openAiBaseUrl();
        p.model = u"fake-model"_s;
        return p;
    }
};

void TestProviderConnection::initTestCase()
{
    qputenv("WATERLINE_NO_KEYCHAIN", "1");
}

void TestProviderConnection::sessionProfileOrDefault()
{
    ProviderConnection c;
    ProviderProfile a = ProviderProfile::defaultProfile();
    a.name = u"a"_s;
    ProviderProfile b = a;
    b.name = u"b"_s;
    c.setProfiles({a, b}, a);
    QString note;
    QCOMPARE(c.profileForSession(u"b"_s, &note).name, u"b"_s);
    QVERIFY(note.isEmpty());
    QCOMPARE(c.profileForSession(QString(), &note).name, u"a"_s);
    QVERIFY(note.isEmpty());
    QCOMPARE(c.profileForSession(u"gone"_s, &note).name, u"a"_s);
    QVERIFY2(note.contains(u"gone"_s) && note.contains(u"no longer exists"_s), qPrintable(note));
}

void TestProviderConnection::clientsFollowTheProfile()
{
    FakeLlmServer server;
    QVERIFY(server.start());
    ProviderConnection c;
    QSignalSpy clients(&c, &ProviderConnection::clientsChanged);
    c.useProfile(profileFor(server, u"one"_s));
    QTRY_COMPARE(clients.size(), 1);
    QVERIFY(c.clientsReady());
    QVERIFY(c.client());
    QVERIFY(!c.summaryClient()); // the main model writes summaries
    // The background draft has a client of its own: the loop keeps sending on client().
    QVERIFY(c.draftClient());
    QVERIFY(c.draftClient() != c.client());
    QCOMPARE(c.draftClient()->endpoint(), c.client()->endpoint());
    QVERIFY(!c.draftSummaryClient());
    ProviderProfile summariser = profileFor(server, u"summariser"_s);
    summariser.model = u"small-model"_s;
    c.setSummarizerProfile(summariser);
    QTRY_COMPARE(clients.size(), 2);
    QVERIFY(c.summaryClient());
    QVERIFY(c.draftSummaryClient());
    QVERIFY(c.draftSummaryClient() != c.summaryClient());
    c.setSummarizerProfile(std::nullopt);
    QTRY_COMPARE(clients.size(), 3);
    QVERIFY(!c.summaryClient());
    QVERIFY(!c.draftSummaryClient());
}

void TestProviderConnection::reachabilityFollowsTheServer()
{
    FakeLlmServer server;
    QVERIFY(server.start());
    server.setModels({u"fake-model"_s});
    ProviderConnection c;
    c.useProfile(profileFor(server, u"up"_s));
    QTRY_COMPARE(c.connection(), ProviderConnection::Connection::Reachable);

    // A port that was free a moment ago: nothing listens there.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost));
    const quint16 port = probe.serverPort();
    probe.close();
    ProviderProfile down = profileFor(server, u"down"_s);
    down.baseUrl = QUrl(u"http://127.0.0.1:%1/v1"_s.arg(port));
    c.useProfile(down);
    QTRY_COMPARE_WITH_TIMEOUT(c.connection(), ProviderConnection::Connection::Unreachable, 15000);
    QVERIFY(!c.connectionError().isEmpty());

    ProviderProfile nowhere = down;
    nowhere.baseUrl = QUrl();
    c.useProfile(nowhere);
    QCOMPARE(c.connection(), ProviderConnection::Connection::Unreachable);
    QVERIFY(c.connectionError().contains(u"no valid address"_s));
}

void TestProviderConnection::profileWaitsForTheRunToEnd()
{
    FakeLlmServer server;
    QVERIFY(server.start());
    ProviderConnection c;
    c.useProfile(profileFor(server, u"first"_s));
    QTRY_VERIFY(c.clientsReady());
    c.setRunBusy(true);
    c.setRunActivity(ProviderConnection::Connection::Streaming);
    QCOMPARE(c.connection(), ProviderConnection::Connection::Streaming);
    QSignalSpy notices(&c, &ProviderConnection::notice);
    c.useProfile(profileFor(server, u"second"_s));
    QCOMPARE(c.profile().name, u"first"_s); // not while the run is busy
    QCOMPARE(notices.size(), 1);
    c.setRunBusy(false);
    QCOMPARE(c.profile().name, u"second"_s);
    QVERIFY(c.connection() != ProviderConnection::Connection::Streaming);
}

QTEST_GUILESS_MAIN(TestProviderConnection)
#include "tst_providerconnection.moc"
