#include "TestSupport.h"
#include "llm/ChatError.h"
#include "llm/RetryPolicy.h"

#include <QTest>

using namespace Qt::StringLiterals;
using namespace wl;

class TestRetryPolicy : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void statusClassification_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("retryable");
        using K = ChatError::Kind;
        QTest::newRow("400") << 400 << int(K::BadRequest) << false;
        QTest::newRow("401") << 401 << int(K::Auth) << false;
        QTest::newRow("403") << 403 << int(K::Auth) << false;
        QTest::newRow("404") << 404 << int(K::NotFound) << false;
        QTest::newRow("408") << 408 << int(K::Timeout) << true;
        QTest::newRow("413") << 413 << int(K::BadRequest) << false;
        QTest::newRow("422") << 422 << int(K::BadRequest) << false;
        QTest::newRow("429") << 429 << int(K::RateLimited) << true;
        QTest::newRow("500") << 500 << int(K::Server) << true;
        QTest::newRow("501") << 501 << int(K::Server) << false;
        QTest::newRow("502") << 502 << int(K::Server) << true;
        QTest::newRow("503") << 503 << int(K::Server) << true;
        QTest::newRow("504") << 504 << int(K::Server) << true;
        QTest::newRow("529") << 529 << int(K::Overloaded) << true;
    }
    void statusClassification()
    {
        QFETCH(int, status);
        QFETCH(int, kind);
        QFETCH(bool, retryable);
        const ChatError e = ChatError::fromHttp({status, "{}", {}, {}, {}}, u"gpt-x"_s, true);
        QCOMPARE(int(e.kind), kind);
        QCOMPARE(e.retryable, retryable);
        QCOMPARE(e.httpStatus, status);
        QCOMPARE(RetryPolicy::isRetryableStatus(status), retryable);
        QVERIFY(e.message.contains(QString::number(status)));
    }

    // Real provider error bodies (tests/data/llm/errors) with the status they came with.
    void providerBodies_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("shouldRetry");
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<QString>("providerText");
        QTest::addColumn<QString>("code");
        using K = ChatError::Kind;
        QTest::newRow("openai 401") << u"openai-401-invalid-api-key.json"_s << 401 << QByteArray() << int(K::Auth) << false
                                    << u"Incorrect API key provided: invalid-key."_s << u"invalid_api_key"_s;
        QTest::newRow("openai 400 context") << u"openai-400-context-length-exceeded.json"_s << 400 << QByteArray()
                                            << int(K::BadRequest) << false << u"context"_s << u"context_length_exceeded"_s;
        QTest::newRow("openai 429 quota") << u"openai-429-insufficient-quota.json"_s << 429 << QByteArray()
                                          << int(K::RateLimited) << false << u"quota"_s << u"insufficient_quota"_s;
        QTest::newRow("azure 429 rate") << u"azure-ai-429-rate-limit-retry-after.json"_s << 429 << QByteArray()
                                        << int(K::RateLimited) << true << u"exceeded rate limit"_s << u"RateLimitReached"_s;
        QTest::newRow("anthropic 401") << u"anthropic-401-invalid-x-api-key.json"_s << 401 << QByteArray("false")
                                       << int(K::Auth) << false << u"invalid x-api-key"_s << u"authentication_error"_s;
        QTest::newRow("anthropic 400") << u"anthropic-400-tool-result-without-tool-use.json"_s << 400 << QByteArray("false")
                                       << int(K::BadRequest) << false << u"tool_use_id"_s << u"invalid_request_error"_s;
    }
    void providerBodies()
    {
        QFETCH(QString, file);
        QFETCH(int, status);
        QFETCH(QByteArray, shouldRetry);
        QFETCH(int, kind);
        QFETCH(bool, retryable);
        QFETCH(QString, providerText);
        QFETCH(QString, code);
        const QByteArray body = test::readData(u"llm/errors/"_s + file);
        const ChatError e = ChatError::fromHttp({status, body, {}, {}, shouldRetry}, u"gpt-x"_s, true);
        QCOMPARE(int(e.kind), kind);
        QCOMPARE(e.retryable, retryable);
        QVERIFY2(e.providerMessage.contains(providerText, Qt::CaseInsensitive), qPrintable(e.providerMessage));
        QCOMPARE(e.providerCode, code);
        QVERIFY(e.displayText().contains(e.providerMessage));
    }

    void userMessages()
    {
        QVERIFY(ChatError::fromHttp({404, "{}", {}, {}, {}}, u"llama9"_s, false).message.contains(u"Model not found: llama9"_s));
        QVERIFY(ChatError::fromHttp({401, "{}", {}, {}, {}}, u"m"_s, true).message.contains(u"API key was rejected"_s));
        QVERIFY(ChatError::fromHttp({401, "{}", {}, {}, {}}, u"m"_s, false).message.contains(u"none is set"_s));
        // A non-JSON error page keeps readable text, but not HTML.
        QCOMPARE(ChatError::fromHttp({502, "upstream connect error", {}, {}, {}}, {}, true).providerMessage,
                 u"upstream connect error"_s);
        QVERIFY(ChatError::fromHttp({502, "<html><body>Bad gateway</body></html>", {}, {}, {}}, {}, true)
                    .providerMessage.isEmpty());
        // Ollama and vLLM shapes.
        QCOMPARE(ChatError::fromHttp({404, R"({"error":"model 'x' not found"})", {}, {}, {}}, {}, false).providerMessage,
                 u"model 'x' not found"_s);
        QCOMPARE(ChatError::fromHttp({400, R"({"object":"error","message":"bad","type":"BadRequestError"})", {}, {}, {}},
                                     {}, false).providerMessage,
                 u"bad"_s);
    }

    void shouldRetryHeaderWins()
    {
        QVERIFY(!ChatError::fromHttp({529, "{}", {}, {}, "false"}, {}, true).retryable);
        QVERIFY(ChatError::fromHttp({409, "{}", {}, {}, "true"}, {}, true).retryable);
        QVERIFY(!ChatError::fromHttp({401, "{}", {}, {}, "true"}, {}, true).retryable);
    }

    void retryAfter_data()
    {
        QTest::addColumn<QByteArray>("retryAfter");
        QTest::addColumn<QByteArray>("retryAfterMs");
        QTest::addColumn<int>("expected");
        QTest::newRow("absent") << QByteArray() << QByteArray() << -1;
        QTest::newRow("seconds") << QByteArray("7") << QByteArray() << 7000;
        QTest::newRow("fraction") << QByteArray("1.5") << QByteArray() << 1500;
        QTest::newRow("zero") << QByteArray("0") << QByteArray() << 0;
        QTest::newRow("ms wins") << QByteArray("1") << QByteArray("250") << 250;
        QTest::newRow("ms zero falls back") << QByteArray("1") << QByteArray("0") << 1000;   // Azure sends this pair
        QTest::newRow("http date") << QByteArray("Wed, 21 Oct 2015 07:28:30 GMT") << QByteArray() << 30000;
        QTest::newRow("date in the past") << QByteArray("Wed, 21 Oct 2015 07:27:00 GMT") << QByteArray() << 0;
        QTest::newRow("garbage") << QByteArray("soon") << QByteArray() << -1;
        QTest::newRow("negative") << QByteArray("-3") << QByteArray() << -1;
    }
    void retryAfter()
    {
        QFETCH(QByteArray, retryAfter);
        QFETCH(QByteArray, retryAfterMs);
        QFETCH(int, expected);
        const QDateTime now(QDate(2015, 10, 21), QTime(7, 28, 0), QTimeZone::UTC);
        QCOMPARE(RetryPolicy::parseRetryAfter(retryAfter, retryAfterMs, now), expected);
    }

    void backoffGrowsWithJitterUpToCap()
    {
        RetryPolicy p;
        p.baseDelayMs = 100;
        p.maxDelayMs = 1000;
        p.jitter = 0.25;
        p.setSeed(42);
        ChatError e = ChatError::network(u"x"_s);
        QList<int> minimums(6, INT_MAX), maximums(6, 0);
        for (int round = 0; round < 200; ++round) {
            for (int attempt = 1; attempt <= 6; ++attempt) {
                const int d = p.delayMs(e, attempt);
                const int full = qMin(1000, 100 << (attempt - 1));
                QVERIFY2(d <= full && d >= full * 3 / 4 - 1, qPrintable(u"attempt %1 delay %2"_s.arg(attempt).arg(d)));
                minimums[attempt - 1] = qMin(minimums[attempt - 1], d);
                maximums[attempt - 1] = qMax(maximums[attempt - 1], d);
            }
        }
        QVERIFY(maximums[5] <= 1000);                     // capped
        QVERIFY(minimums[0] < maximums[0]);               // jitter varies the delay
        QVERIFY(maximums[1] > maximums[0]);               // and it grows
        // Retry-After is taken as it is.
        e.retryAfterMs = 3210;
        QCOMPARE(p.delayMs(e, 1), 3210);
    }

    void attemptsAndLimits()
    {
        RetryPolicy p;
        p.maxAttempts = 3;
        p.maxRetryAfterMs = 60000;
        ChatError e = ChatError::network(u"reset"_s);
        QVERIFY(p.shouldRetry(e, 1));
        QVERIFY(p.shouldRetry(e, 2));
        QVERIFY(!p.shouldRetry(e, 3));
        e.retryAfterMs = 120000; // "come back in two minutes": tell the user instead of waiting
        QVERIFY(!p.shouldRetry(e, 1));
        QVERIFY(!p.shouldRetry(ChatError::protocol(u"bad"_s), 1));
        QVERIFY(!p.shouldRetry(ChatError::cancelled(), 1));
        QVERIFY(p.shouldRetry(ChatError::timeout(1000), 1));
    }
};

QTEST_GUILESS_MAIN(TestRetryPolicy)
#include "tst_retrypolicy.moc"
