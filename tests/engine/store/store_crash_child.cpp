// Child process of tst_storecrash: appends steps to a session in a loop, one transaction per
// step, and prints every message id right after its step committed. The test kills it with
// SIGKILL at a random moment and checks that every printed id survived.
//   store_crash_child <database> <session id>
#include "store/SessionStore.h"

#include <QCoreApplication>

#include <cstdio>

using namespace Qt::StringLiterals;

using namespace wl;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 3) {
        std::fprintf(stderr, "usage: store_crash_child <database> <session id>\n");
        return 2;
    }
    SessionStore store;
    QString error;
    if (!store.open(args[1], &error)) {
        std::fprintf(stderr, "open: %s\n", qPrintable(error));
        return 1;
    }
    const QString session = args[2];
    for (qint64 turn = 0;; ++turn) {
        StepAppend step;
        RequestRecord request;
        request.estimateTokens = 100 + turn;
        request.model = u"crash-test"_s;
        request.inputTokens = 90 + turn;
        step.request = request;
        const QString callId = u"call_%1"_s.arg(turn);
        Message assistant = Message::assistant(u"turn %1"_s.arg(turn),
                                               {{callId, u"bash"_s, u"{\"cmd\":\"ls\"}"_s, true}});
        assistant.origin = ThisStep::kRow;
        step.messages << Message::user(u"prompt %1 "_s.arg(turn).repeated(1 + turn % 50)) << assistant
                      << Message::toolResult(callId, QString(int(200 + turn % 4000), QLatin1Char('x')));
        const auto ids = store.appendStep(session, step, &error);
        if (!ids) {
            std::fprintf(stderr, "append: %s\n", qPrintable(error));
            return 1;
        }
        for (qint64 id : ids->messageIds)
            std::printf("%lld\n", static_cast<long long>(id));
        std::fflush(stdout);
    }
}
