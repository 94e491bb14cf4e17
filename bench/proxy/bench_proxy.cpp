// What the local provider proxy adds to an agent's latency (issue 23 item 2), in one process with
// Qt's HTTP client: the fake upstream (FakeLlmServer) asked directly and through ProxyServer, in
// alternation, so both see the same machine load.
//
// BM_AddedFirstByte: from sending the request to the first body byte. Counters: the medians of
//   direct_ms and proxied_ms over the iterations, and added_ms = their difference. Target < 5 ms.
// BM_AddedPerEvent: a stream of kEvents events, kDelayMs apart, from a paced upstream written for
//   this benchmark (PacedUpstream below): it writes each event at a moment it records, on the same
//   clock as the client, so each event's latency is exactly its arrival minus its sending. (Timing
//   FakeLlmServer's events from its requestReceived signal instead measured mostly its timers'
//   jitter, which adds up along a stream.) Counters: the median latency per event direct and
//   proxied, and added_ms = proxied minus direct. Target < 1 ms.
// Run: build/bin/bench_proxy --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// and read the counters of the _median rows.
#include "FakeLlmServer.h"
#include "proxy/ProxyServer.h"

#include <benchmark/benchmark.h>

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <algorithm>
#include <vector>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {
constexpr int kEvents = 60;
constexpr int kDelayMs = 4;

double median(std::vector<double> values)
{
    if (values.empty())
        return -1;
    std::sort(values.begin(), values.end());
    const size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

// The upstream, the proxy in front of it and a client, alive for one benchmark run.
struct Rig
{
    FakeLlmServer upstream;
    ProxyServer proxy;
    QNetworkAccessManager client;
    QElapsedTimer clock;
    bool ok = false;

    Rig()
    {
        clock.start();
        if (!upstream.start())
            return;
        ProxyServer::Options options;
        options.upstream = upstream.url();
        ok = proxy.listen(options);
    }
    QUrl chatUrl(bool proxied) const
    {
        const QString base = proxied ? proxy.baseUrl().toString() : upstream.url().toString();
        return QUrl(base + u"/v1/chat/completions"_s);
    }
    double nowMs() const { return double(clock.nsecsElapsed()) / 1e6; }
};

// Answers any request with an SSE stream whose events it writes when told to, one at a time,
// keeping the moment each was written.
class PacedUpstream : public QTcpServer
{
public:
    PacedUpstream()
    {
        connect(this, &QTcpServer::newConnection, this, [this] {
            QTcpSocket *socket = nextPendingConnection();
            socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            connect(socket, &QTcpSocket::readyRead, socket, [this, socket] {
                m_request += socket->readAll();
                const qsizetype headEnd = m_request.indexOf("\r\n\r\n");
                if (headEnd < 0)
                    return;
                const qsizetype lengthAt = m_request.toLower().indexOf("content-length:");
                const qsizetype length = lengthAt < 0 ? 0 : m_request.mid(lengthAt + 15, 12).trimmed().split('\r').first().toLongLong();
                if (m_request.size() < headEnd + 4 + length)
                    return;
                m_request.clear();
                socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
                              "Connection: close\r\n\r\n");
                m_stream = socket;
            });
        });
        listen(QHostAddress::LocalHost);
    }
    QUrl url() const { return QUrl(u"http://127.0.0.1:%1"_s.arg(serverPort())); }
    bool streaming() const { return m_stream != nullptr; }
    void writeEvent(int i)
    {
        const QByteArray event = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"piece " + QByteArray::number(i) + "\"}}]}\n\n";
        m_stream->write(QByteArray::number(event.size(), 16) + "\r\n" + event + "\r\n");
        m_stream->flush();
    }
    void finish()
    {
        m_stream->write("0\r\n\r\n");
        m_stream->disconnectFromHost();
        m_stream = nullptr;
    }

private:
    QByteArray m_request;
    QPointer<QTcpSocket> m_stream;
};

// Posts one streamed chat request and returns the time from sending it to the first body byte
// (-1 when it failed).
double firstByteMs(Rig &rig, bool proxied)
{
    QNetworkRequest request(rig.chatUrl(proxied));
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    request.setRawHeader("Authorization", "Bearer sk-bench-not-a-key");
    request.setRawHeader("Accept-Encoding", "identity");
    const double sent = rig.nowMs();
    double first = -1;
    QNetworkReply *reply = rig.client.post(request, QByteArray(R"({"model":"m","stream":true,"messages":[]})"));
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [&] {
        if (first < 0)
            first = rig.nowMs();
        reply->readAll();
    });
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(30000, &loop, &QEventLoop::quit);
    loop.exec();
    const bool ok = reply->isFinished() && reply->error() == QNetworkReply::NoError && first >= 0;
    reply->deleteLater();
    return ok ? first - sent : -1;
}


void BM_AddedFirstByte(benchmark::State &state)
{
    Rig rig;
    if (!rig.ok) {
        state.SkipWithError("could not start the upstream or the proxy");
        return;
    }
    std::vector<double> direct, proxied;
    int round = 0;
    for (auto _ : state) {
        // Alternate which goes first, so neither always meets a warmer cache.
        for (int k = 0; k < 2; ++k) {
            const bool viaProxy = (k == 0) == (round % 2 == 0);
            rig.upstream.enqueue(FakeReply::withText(u"A short answer in a few events."_s));
            const double ms = firstByteMs(rig, viaProxy);
            if (ms < 0) {
                state.SkipWithError("a request failed");
                return;
            }
            (viaProxy ? proxied : direct).push_back(ms);
        }
        ++round;
    }
    const double d = median(direct), p = median(proxied);
    state.counters["direct_ms"] = d;
    state.counters["proxied_ms"] = p;
    state.counters["added_ms"] = p - d;
}
BENCHMARK(BM_AddedFirstByte)->Iterations(100)->Unit(benchmark::kMillisecond);

// The latency of each event of one stream: written by `upstream` kDelayMs apart, read by the client
// directly or through `proxy`.
bool eventLatencies(PacedUpstream &upstream, ProxyServer *proxy, QNetworkAccessManager &client, const QElapsedTimer &clock,
                    std::vector<double> *latencies)
{
    const QString base = proxy ? proxy->baseUrl().toString() : upstream.url().toString();
    QNetworkRequest request(QUrl(base + u"/v1/chat/completions"_s));
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    request.setRawHeader("Accept-Encoding", "identity");
    QNetworkReply *reply = client.post(request, QByteArray(R"({"model":"m","stream":true,"messages":[]})"));
    QByteArray pending;
    std::vector<double> arrived;
    QObject::connect(reply, &QNetworkReply::readyRead, reply, [&] {
        const double now = double(clock.nsecsElapsed()) / 1e6;
        pending += reply->readAll();
        qsizetype end;
        while ((end = pending.indexOf("\n\n")) >= 0) {
            arrived.push_back(now);
            pending.remove(0, end + 2);
        }
    });
    QElapsedTimer waited;
    waited.start();
    while (!upstream.streaming() && waited.elapsed() < 10000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    if (!upstream.streaming())
        return false;
    std::vector<double> sent;
    for (int i = 0; i < kEvents; ++i) {
        // The pause first, so the previous event is read and the next one goes out on a quiet loop.
        QEventLoop pause;
        QTimer::singleShot(kDelayMs, Qt::PreciseTimer, &pause, &QEventLoop::quit);
        pause.exec();
        sent.push_back(double(clock.nsecsElapsed()) / 1e6);
        upstream.writeEvent(i);
    }
    upstream.finish();
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QTimer::singleShot(10000, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    const bool ok = reply->error() == QNetworkReply::NoError && arrived.size() == sent.size();
    reply->deleteLater();
    if (ok) {
        for (size_t i = 0; i < sent.size(); ++i)
            latencies->push_back(arrived[i] - sent[i]);
    }
    return ok;
}

void BM_AddedPerEvent(benchmark::State &state)
{
    PacedUpstream upstream;
    ProxyServer proxy;
    ProxyServer::Options options;
    options.upstream = upstream.url();
    if (!upstream.isListening() || !proxy.listen(options)) {
        state.SkipWithError("could not start the upstream or the proxy");
        return;
    }
    QNetworkAccessManager client;
    QElapsedTimer clock;
    clock.start();
    std::vector<double> direct, proxied;
    int round = 0;
    for (auto _ : state) {
        for (int k = 0; k < 2; ++k) {
            const bool viaProxy = (k == 0) == (round % 2 == 0);   // alternating, as above
            if (!eventLatencies(upstream, viaProxy ? &proxy : nullptr, client, clock, viaProxy ? &proxied : &direct)) {
                state.SkipWithError("a stream failed or lost events");
                return;
            }
        }
        ++round;
    }
    const double d = median(direct), p = median(proxied);
    state.counters["events"] = double(proxied.size());
    state.counters["direct_ms"] = d;
    state.counters["proxied_ms"] = p;
    state.counters["added_ms"] = p - d;
}
BENCHMARK(BM_AddedPerEvent)->Iterations(10)->Unit(benchmark::kMillisecond);
} // namespace
