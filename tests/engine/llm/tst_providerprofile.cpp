#include "llm/ModelTable.h"
#include "llm/ProviderProfile.h"

#include <QJsonDocument>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace wl;

class TestProviderProfile : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaultIsLocalOllama()
    {
        const ProviderProfile p = ProviderProfile::defaultProfile();
        QCOMPARE(p.protocol, ProviderProfile::Protocol::OpenAiChat);
        QCOMPARE(p.baseUrl, QUrl(u"http://127.0.0.1:11434/v1"_s));
        QVERIFY(p.keyRef.isEmpty());
        QVERIFY(!p.model.isEmpty());
    }

    void jsonRoundTrip_data()
    {
        QTest::addColumn<ProviderProfile>("profile");
        ProviderProfile anthropic;
        anthropic.name = u"Claude"_s;
        anthropic.protocol = ProviderProfile::Protocol::Anthropic;
        anthropic.baseUrl = QUrl(u"https://api.anthropic.com"_s);
        anthropic.model = u"claude-sonnet-4-5"_s;
        anthropic.keyRef = u"ANTHROPIC_API_KEY"_s;
        anthropic.contextWindow = 200000;
        anthropic.maxOutputTokens = 8192;
        QTest::newRow("anthropic") << anthropic;
        QTest::newRow("default") << ProviderProfile::defaultProfile();
        ProviderProfile keychain = ProviderProfile::defaultProfile();
        keychain.keyRef = u"waterline/openrouter"_s;
        QTest::newRow("keychain ref") << keychain;
    }
    void jsonRoundTrip()
    {
        QFETCH(ProviderProfile, profile);
        QString error;
        const auto back = ProviderProfile::fromJson(profile.toJson(), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(*back, profile);
    }

    void jsonCarriesNoSecret()
    {
        QJsonObject o = ProviderProfile::defaultProfile().toJson();
        o.insert(u"apiKey", u"sk-live-0123456789abcdefghij"_s);
        o.insert(u"key", u"sk-live-0123456789abcdefghij"_s);
        const auto p = ProviderProfile::fromJson(o);
        QVERIFY(p);
        const QByteArray written = QJsonDocument(p->toJson()).toJson();
        QVERIFY(!written.contains("sk-live"));
        QVERIFY(!written.contains("apiKey"));
    }

    void invalidProfiles_data()
    {
        QTest::addColumn<QJsonObject>("json");
        QTest::addColumn<QString>("errorPart");
        const QJsonObject good = ProviderProfile::defaultProfile().toJson();
        QJsonObject o = good;
        o[u"protocol"] = u"gemini"_s;
        QTest::newRow("protocol") << o << u"unknown protocol"_s;
        o = good;
        o[u"baseUrl"] = u"file:///etc/passwd"_s;
        QTest::newRow("scheme") << o << u"not an http(s) URL"_s;
        o = good;
        o[u"baseUrl"] = u"http://user:pw@host/v1"_s;
        QTest::newRow("credentials in url") << o << u"user name or password"_s;
        o = good;
        o[u"model"] = u" "_s;
        QTest::newRow("model") << o << u"no model"_s;
        o = good;
        o[u"keyRef"] = u"sk-proj-abcdefghijklmnopqrstuvwxyz012345"_s;
        QTest::newRow("key as keyRef") << o << u"looks like an API key"_s;
        o = good;
        o[u"contextWindow"] = -5;
        QTest::newRow("negative") << o << u"contextWindow"_s;
        o = good;
        o[u"contextWindow"] = 1e300;
        QTest::newRow("window 1e300") << o << u"contextWindow"_s;
        o = good;
        o[u"contextWindow"] = u"128000"_s;
        QTest::newRow("window as string") << o << u"contextWindow"_s;
        o = good;
        o[u"maxOutputTokens"] = 9223372036854775807.0;
        QTest::newRow("output 2^63") << o << u"maxOutputTokens"_s;
        o = good;
        o[u"maxOutputTokens"] = 2.5;
        QTest::newRow("output fractional") << o << u"maxOutputTokens"_s;
    }
    void invalidProfiles()
    {
        QFETCH(QJsonObject, json);
        QFETCH(QString, errorPart);
        QString error;
        QVERIFY(!ProviderProfile::fromJson(json, &error));
        QVERIFY2(error.contains(errorPart), qPrintable(error));
    }

    void modelTable_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("window"); // 0: unknown
        QTest::newRow("gpt-4o") << u"gpt-4o"_s << 128000LL;
        QTest::newRow("gpt-4o dated") << u"gpt-4o-2024-08-06"_s << 128000LL;
        QTest::newRow("gpt-4o-mini") << u"gpt-4o-mini"_s << 128000LL;
        QTest::newRow("gpt-4.1") << u"gpt-4.1"_s << 1047576LL;
        QTest::newRow("gpt-4.1-mini") << u"gpt-4.1-mini"_s << 1047576LL;
        QTest::newRow("gpt-4 not gpt-4o") << u"gpt-4"_s << 8192LL;
        QTest::newRow("o3") << u"o3"_s << 200000LL;
        QTest::newRow("o4-mini") << u"o4-mini"_s << 200000LL;
        QTest::newRow("router prefix") << u"openai/gpt-4o"_s << 128000LL;
        QTest::newRow("claude-sonnet-4-5 dated") << u"claude-sonnet-4-5-20250929"_s << 200000LL;
        QTest::newRow("claude-opus-4") << u"claude-opus-4-20250514"_s << 200000LL;
        QTest::newRow("claude-haiku-4-5") << u"claude-haiku-4-5"_s << 200000LL;
        QTest::newRow("llama3.1 tag") << u"llama3.1:8b"_s << 131072LL;
        QTest::newRow("llama3.2") << u"llama3.2"_s << 131072LL;
        QTest::newRow("llama3 not 3.1") << u"llama3:8b"_s << 8192LL;
        QTest::newRow("qwen2.5-coder") << u"qwen2.5-coder:7b"_s << 32768LL;
        QTest::newRow("qwen3") << u"qwen3:14b"_s << 40960LL;
        QTest::newRow("case") << u"GPT-4o"_s << 128000LL;
        QTest::newRow("unknown") << u"my-finetune"_s << 0LL;
        QTest::newRow("prefix without separator") << u"o3x"_s << 0LL;
    }
    void modelTable()
    {
        QFETCH(QString, model);
        QFETCH(qint64, window);
        const auto entry = ModelTable::lookup(model);
        QCOMPARE(entry.has_value(), window > 0);
        if (entry) {
            QCOMPARE(entry->contextWindow, window);
            QVERIFY(entry->maxOutputTokens > 0);
        }
    }

    void effectiveLimits()
    {
        ProviderProfile p = ProviderProfile::defaultProfile();
        p.model = u"llama3.1:8b"_s;
        QCOMPARE(p.effectiveContextWindow(), 131072);
        p.contextWindow = 4096; // what Ollama really runs with
        QCOMPARE(p.effectiveContextWindow(), 4096);
        p.model = u"unknown-model"_s;
        p.contextWindow = 0;
        QCOMPARE(p.effectiveContextWindow(), 8192);
        QCOMPARE(p.effectiveMaxOutputTokens(), 4096);
    }

    // The one rule for a session's window (the window, the agent's default policy, new sessions).
    void sizedPolicy_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("profileWindow");
        QTest::addColumn<qint64>("policyWindow");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("default window, table model") << u"claude-opus-4-20250514"_s << 0LL << 128000LL << 200000LL;
        QTest::newRow("default window, profile window") << u"llama3.1:8b"_s << 4096LL << 128000LL << 4096LL;
        QTest::newRow("default window, unknown model") << u"my-finetune"_s << 0LL << 128000LL << 8192LL;
        QTest::newRow("window set by the user stays") << u"claude-opus-4-20250514"_s << 0LL << 30000LL << 30000LL;
    }
    void sizedPolicy()
    {
        QFETCH(QString, model);
        QFETCH(qint64, profileWindow);
        QFETCH(qint64, policyWindow);
        QFETCH(qint64, expected);
        ProviderProfile p = ProviderProfile::defaultProfile();
        p.model = model;
        p.contextWindow = profileWindow;
        CompactionPolicy policy;
        policy.contextWindow = policyWindow;
        policy.warn = 0.5;
        const CompactionPolicy sized = p.sizedPolicy(policy);
        QCOMPARE(sized.contextWindow, expected);
        QCOMPARE(sized.warn, 0.5); // the rest of the policy is kept
    }
};

QTEST_GUILESS_MAIN(TestProviderProfile)
#include "tst_providerprofile.moc"
