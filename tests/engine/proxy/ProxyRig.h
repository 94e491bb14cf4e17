#pragma once

// What the proxy's socket tests share (tst_proxyrecorder, tst_proxycompact): the fake upstream, the
// proxy in front of it, a recorder into a database of the rig's own folder, and a client. Members
// go in reverse order: the recorder finishes its writes before the proxy and upstream go.
#include "FakeLlmServer.h"
#include "proxy/ProxyRecorder.h"
#include "proxy/ProxyServer.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <utility>

namespace wl::test {

struct ProxyRig
{
    QTemporaryDir dir;
    FakeLlmServer upstream;
    ProxyServer proxy;
    std::unique_ptr<ProxyRecorder> recorder;
    QNetworkAccessManager client;

    QString databasePath() const { return dir.filePath(QStringLiteral("sessions.db")); }

    // Starts the upstream, the proxy in front of it and the recorder (with its audit in
    // `auditDir` when given). Empty when all is up, else what is not.
    QString start(const QString &auditDir = {})
    {
        if (!dir.isValid())
            return QStringLiteral("no temporary folder");
        if (!upstream.start())
            return QStringLiteral("the fake upstream did not start");
        ProxyServer::Options options;
        options.upstream = upstream.url();
        QString error;
        if (!proxy.listen(options, &error))
            return error;
        recorder = std::make_unique<ProxyRecorder>(databasePath());
        if (!auditDir.isEmpty())
            recorder->setAuditDir(auditDir);
        recorder->attach(&proxy);
        return {};
    }

    // POSTs `body` (JSON) to the proxy's `path` with `headers`, and waits up to 10 s for the whole
    // answer. The reply (the caller deletes it later), or null when it did not finish.
    QNetworkReply *post(const QString &path, const QByteArray &body,
                        const QList<std::pair<QByteArray, QByteArray>> &headers = {})
    {
        QNetworkRequest request(QUrl(proxy.baseUrl().toString() + path));
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        for (const auto &[name, value] : headers)
            request.setRawHeader(name, value);
        QNetworkReply *reply = client.post(request, body);
        if (!QTest::qWaitFor([reply] { return reply->isFinished(); }, 10000)) {
            reply->deleteLater();
            return nullptr;
        }
        return reply;
    }
};

} // namespace wl::test
