// A key set in the environment never shows in any log line (all categories,
// debug level) nor in a recorded request dump, through successes, retries and
// errors, including a provider error that echoes the key back.
#include "FakeLlmServer.h"
#include "LogCapture.h"
#include "llm/AnthropicClient.h"
#include "llm/ApiKeyStore.h"
#include "llm/ChatClient.h"
#include "llm/ModelDiscovery.h"
#include "llm/OpenAiChatClient.h"
#include "llm/ProviderProfile.h"
#include "llm/Redaction.h"

#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace wl;
using wl::test::FakeLlmServer;
using wl::test::FakeReply;

namespace {
// Unusual shapes on purpose: one matches no key pattern, so only registration can catch it.
const QString kOpenAiSecret = u"sk-proj-Wl7SecretOpenAiKeyDoNotLog9876543210"_s;
const QString kAnthropicSecret = u"zz-anthropic-Wl7SecretKey-0b5c"_s;
} // namespace

class TestLlmSecrets : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<wl::ApiKeyStore::Result>();
        qputenv("OPENAI_API_KEY", kOpenAiSecret.toUtf8());
        qputenv("ANTHROPIC_API_KEY", kAnthropicSecret.toUtf8());
        qputenv("WATERLINE_NO_KEYCHAIN", "1");
    }

    void redactionHelper_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("mustNotContain");
        QTest::newRow("authorization header") << u"Authorization: Bearer abc.def-ghi"_s << u"abc.def-ghi"_s;
        QTest::newRow("x-api-key header") << u"x-api-key: plain-value-123"_s << u"plain-value-123"_s;
        QTest::newRow("json header") << u"{\"x-api-key\": \"v4lue-in-json\"}"_s << u"v4lue-in-json"_s;
        QTest::newRow("bare bearer") << u"sent Bearer tok_9f8e7d6c5b"_s << u"tok_9f8e7d6c5b"_s;
        QTest::newRow("openai key shape") << u"key sk-abcdefghijklmnop1234 here"_s << u"sk-abcdefghijklmnop1234"_s;
        QTest::newRow("anthropic key shape") << u"sk-ant-api03-aaaaBBBBccccDDDD"_s << u"aaaaBBBBccccDDDD"_s;
    }
    void redactionHelper()
    {
        QFETCH(QString, input);
        QFETCH(QString, mustNotContain);
        const QString out = Redaction::redact(input);
        QVERIFY2(!out.contains(mustNotContain), qPrintable(out));
        QVERIFY(out.contains(Redaction::kMask));
        QCOMPARE(Redaction::redact(u"nothing secret here: 42 tokens"_s), u"nothing secret here: 42 tokens"_s);
    }

    // Tool output is scrubbed before it is stored: each shape named, near misses left alone.
    void toolOutputScrub_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("secret");      // must be gone; empty: nothing may change
        QTest::addColumn<QStringList>("removed");
        const QString gh = u"ghp_"_s + QString(36, u'A');
        QTest::newRow("github classic token") << u"token=%1\n"_s.arg(gh) << gh << QStringList{u"GitHub token"_s};
        QTest::newRow("github fine-grained") << u"github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"_s
                                             << u"github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"_s
                                             << QStringList{u"GitHub token"_s};
        QTest::newRow("gitlab") << u"glpat-abcdefghij0123456789"_s << u"glpat-abcdefghij0123456789"_s
                                << QStringList{u"GitLab token"_s};
        QTest::newRow("aws id and secret")
            << u"[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"_s
            << u"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"_s << QStringList{u"AWS access key id"_s, u"AWS secret key"_s};
        QTest::newRow("anthropic key") << u"export ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstu"_s
                                       << u"abcdefghijklmnopqrstu"_s << QStringList{u"Anthropic key"_s};
        QTest::newRow("openai project key") << u"sk-proj-abcdefghijklmnopqrstuvwx"_s << u"abcdefghijklmnopqrstuvwx"_s
                                            << QStringList{u"OpenAI key"_s};
        QTest::newRow("private key block")
            << u"before\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\nafter"_s
            << u"b3BlbnNzaC1rZXktdjEAAAAA"_s << QStringList{u"private key"_s};
        QTest::newRow("private key cut off") << u"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA"_s << u"MIIEowIBAAKCAQEA"_s
                                             << QStringList{u"private key"_s};
        QTest::newRow("authorization header") << u"> Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.x\n< HTTP/1.1 200"_s
                                              << u"eyJhbGciOiJIUzI1NiJ9"_s << QStringList{u"Authorization header"_s};
        QTest::newRow("slack") << u"xoxb-123456789012-abcdefABCDEF"_s << u"xoxb-123456789012-abcdefABCDEF"_s
                               << QStringList{u"Slack token"_s};
        QTest::newRow("registered key of an unusual shape") << u"echo %1"_s.arg(kAnthropicSecret) << kAnthropicSecret
                                                            << QStringList{u"API key"_s};
        QTest::newRow("near miss: git sha") << u"commit 3f786850e387550fdab836ed7e6dc881de23001b"_s << QString()
                                            << QStringList{};
        QTest::newRow("near miss: uuid and prose") << u"id 123e4567-e89b-12d3-a456-426614174000; authorization is needed"_s
                                                   << QString() << QStringList{};
        QTest::newRow("near miss: short prefixes") << u"sk-abc ghp_short AKIAlower glpat-x"_s << QString() << QStringList{};
        QTest::newRow("near miss: CJK text") << u"密钥已轮换，请使用新的 令牌"_s << QString() << QStringList{};
    }
    void toolOutputScrub()
    {
        QFETCH(QString, input);
        QFETCH(QString, secret);
        QFETCH(QStringList, removed);
        Redaction::registerSecret(kAnthropicSecret);
        const Redaction::Scrubbed out = Redaction::scrub(input);
        QCOMPARE(out.removed, removed);
        if (secret.isEmpty()) {
            QCOMPARE(out.text, input);
            return;
        }
        QVERIFY2(!out.text.contains(secret), qPrintable(out.text));
        for (const QString &what : removed)
            QVERIFY2(out.text.contains(u"[redacted: "_s + what + u']'), qPrintable(out.text));
        QCOMPARE(Redaction::scrubbedCount(out.text), removed.size());
    }

    void keyStoreUsesEnvironment_data()
    {
        QTest::addColumn<int>("protocol");
        QTest::addColumn<QString>("keyRef");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<int>("source");
        QTest::newRow("openai default var") << int(ProviderProfile::Protocol::OpenAiChat) << u"waterline/openai"_s
                                            << kOpenAiSecret << int(ApiKeyStore::Source::Environment);
        QTest::newRow("anthropic named var") << int(ProviderProfile::Protocol::Anthropic) << u"ANTHROPIC_API_KEY"_s
                                             << kAnthropicSecret << int(ApiKeyStore::Source::Environment);
        QTest::newRow("unset var") << int(ProviderProfile::Protocol::OpenAiChat) << u"WL_TEST_UNSET_KEY_VAR"_s << QString()
                                   << int(ApiKeyStore::Source::None);
        QTest::newRow("no key needed") << int(ProviderProfile::Protocol::OpenAiChat) << QString() << QString()
                                       << int(ApiKeyStore::Source::None);
    }
    void keyStoreUsesEnvironment()
    {
        QFETCH(int, protocol);
        QFETCH(QString, keyRef);
        QFETCH(QString, expected);
        QFETCH(int, source);
        ApiKeyStore store;
        QVERIFY(!store.keychainEnabled());
        ProviderProfile profile = ProviderProfile::defaultProfile();
        profile.protocol = ProviderProfile::Protocol(protocol);
        profile.keyRef = keyRef;
        QSignalSpy resolved(&store, &ApiKeyStore::keyResolved);
        store.lookup(profile);
        QCOMPARE(resolved.size(), 0); // asynchronous
        QVERIFY(resolved.wait(2000));
        const auto result = resolved.first().at(1).value<ApiKeyStore::Result>();
        QCOMPARE(resolved.first().at(0).toString(), keyRef);
        QCOMPARE(result.key, expected);
        QCOMPARE(int(result.source), source);
        QVERIFY(!result.detail.isEmpty());
        QVERIFY(!result.detail.contains(kOpenAiSecret));
    }

    void secretNeverLogged()
    {
        test::LogCapture capture;
        FakeLlmServer server;
        QVERIFY(server.start());

        // Resolve both keys the way the app does.
        ApiKeyStore store;
        QSignalSpy resolved(&store, &ApiKeyStore::keyResolved);
        ProviderProfile openai = ProviderProfile::defaultProfile();
        openai.keyRef = u"OPENAI_API_KEY"_s;
        openai.baseUrl = server.openAiBaseUrl();
        ProviderProfile anthropic = openai;
        anthropic.protocol = ProviderProfile::Protocol::Anthropic;
        anthropic.keyRef = u"ANTHROPIC_API_KEY"_s;
        anthropic.baseUrl = server.anthropicBaseUrl();
        store.lookup(openai);
        store.lookup(anthropic);
        QTRY_COMPARE(resolved.size(), 2);
        QString openAiKey, anthropicKey;
        for (const QList<QVariant> &args : std::as_const(resolved))
            (args.at(0).toString() == u"OPENAI_API_KEY" ? openAiKey : anthropicKey) = args.at(1).value<ApiKeyStore::Result>().key;
        QCOMPARE(openAiKey, kOpenAiSecret);
        QCOMPARE(anthropicKey, kAnthropicSecret);

        // A provider error that quotes the key back (OpenAI does this for a wrong key).
        const QByteArray echo = "{\"error\":{\"message\":\"Incorrect API key provided: " + kOpenAiSecret.toUtf8()
                              + "\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}";
        for (const ProviderProfile &profile : {openai, anthropic}) {
            server.enqueue(FakeReply::withStatus(503));
            server.enqueue(FakeReply::withText(u"ok"_s));
            server.enqueue(FakeReply::withStatus(401, echo));
            std::unique_ptr<ChatClient> client(
                ChatClient::create(profile, profile.protocol == ProviderProfile::Protocol::Anthropic ? anthropicKey : openAiKey));
            RetryPolicy fast;
            fast.baseDelayMs = 1;
            client->setRetryPolicy(fast);
            QSignalSpy finished(client.get(), &ChatClient::finished);
            QSignalSpy failed(client.get(), &ChatClient::failed);
            ChatRequest request;
            request.model = u"m"_s;
            request.messages = {Message::user(u"hi"_s)};
            client->send(request);
            QVERIFY(finished.wait(5000));
            client->send(request);
            QVERIFY(failed.wait(5000));
            const ChatError error = failed.first().first().value<ChatError>();
            QCOMPARE(error.kind, ChatError::Kind::Auth);
            QVERIFY2(!error.providerMessage.contains(kOpenAiSecret), qPrintable(error.providerMessage));
            QVERIFY(!error.displayText().contains(kOpenAiSecret));

            ModelDiscovery discovery;
            QSignalSpy models(&discovery, &ModelDiscovery::modelsFound);
            discovery.fetch(profile, profile.protocol == ProviderProfile::Protocol::Anthropic ? anthropicKey : openAiKey);
            QVERIFY(models.wait(5000));
        }

        // Something was logged, at debug level, from the LLM layer: the check below is not vacuous.
        QVERIFY(capture.size() > 10);
        QVERIFY(capture.contains(u"waterline.llm: POST"_s));
        QVERIFY(capture.text().contains(u"authorization: [redacted]"_s, Qt::CaseInsensitive));
        QVERIFY(capture.text().contains(u"x-api-key: [redacted]"_s, Qt::CaseInsensitive));
        const QString logs = capture.text();
        QVERIFY2(!logs.contains(kOpenAiSecret), "the OpenAI key reached a log line");
        QVERIFY2(!logs.contains(kAnthropicSecret), "the Anthropic key reached a log line");

        QCOMPARE(server.requestCount(), 2 * (3 + 1)); // per protocol: 503, retry, 401, model list
        for (const test::RecordedRequest &r : server.requests()) {
            const QString dump = r.dump();
            QVERIFY(!dump.contains(kOpenAiSecret));
            QVERIFY(!dump.contains(kAnthropicSecret));
            QVERIFY(r.hasHeader("authorization") || r.hasHeader("x-api-key"));
        }
    }
};

QTEST_GUILESS_MAIN(TestLlmSecrets)
#include "tst_llmsecrets.moc"
