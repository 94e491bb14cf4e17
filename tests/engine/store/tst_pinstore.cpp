// Pins in the store (docs/COMPACTION.md section 12): stored with the session, refused past the budget,
// carried by the overlays, surviving a reopen, an export and its import, and honoured by the replay.
#include "compaction/CompactionPolicy.h"
#include "compaction/PinnedSection.h"
#include "compaction/TokenEstimate.h"
#include "store/Migrations.h"
#include "store/PinBudget.h"
#include "store/SessionExport.h"
#include "store/SessionStore.h"
#include "whatif/ReplayInput.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
constexpr qint64 kNoLimit = qint64(1) << 40;

Pin pinOf(Pin::Kind kind, qint64 messageId, const QString &text)
{
    Pin p;
    p.kind = kind;
    p.messageId = messageId;
    p.text = text;
    return p;
}
} // namespace

class TestPinStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void addListAndUnpin();
    void survivesReopen();
    void hostilePins();
    void budgetRefusal();
    void exportAndImport();
    void exportHostilePinLines_data();
    void exportHostilePinLines();
    void replayInputCarriesPins();

private:
    QString makeSession(QList<qint64> *ids);
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<SessionStore> m_store;
};

void TestPinStore::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_store = std::make_unique<SessionStore>();
    QString error;
    QVERIFY2(m_store->open(m_dir->filePath(u"s.db"_s), &error), qPrintable(error));
    QCOMPARE(m_store->schemaVersion(), Migrations::latestVersion());
}

QString TestPinStore::makeSession(QList<qint64> *ids)
{
    SessionInfo fields;
    fields.title = u"pins"_s;
    fields.workspace = m_dir->path();
    fields.systemPrompt = u"You are a coding agent."_s;
    const auto created = m_store->createSession(fields);
    if (!created)
        return {};
    StepAppend step;
    step.messages = {Message::user(u"Never touch the migrations folder. Port the parser."_s),
                     Message::assistant(u"I'll use a recursive descent parser."_s),
                     Message::user(u"ok"_s)};
    const auto stored = m_store->appendStep(created->id, step);
    if (!stored)
        return {};
    *ids = stored->messageIds;
    return created->id;
}

void TestPinStore::addListAndUnpin()
{
    QList<qint64> ids;
    const QString s = makeSession(&ids);
    QVERIFY(!s.isEmpty());
    QString error;
    // A message pin takes its text from the stored message, whatever the caller says.
    const auto whole = m_store->addPin(s, pinOf(Pin::Kind::Message, ids[1], u"forged"_s), kNoLimit, &error);
    QVERIFY2(whole, qPrintable(error));
    QCOMPARE(whole->text, u"I'll use a recursive descent parser."_s);
    QVERIFY(whole->id > 0);
    const auto selection = m_store->addPin(s, pinOf(Pin::Kind::Selection, ids[0], u"Never touch the migrations folder."_s), kNoLimit, &error);
    QVERIFY2(selection, qPrintable(error));
    Pin note = pinOf(Pin::Kind::Note, 0, u"tabs, not spaces"_s);
    note.source = Pin::Source::Model;
    note.reason = u"the user said so"_s;
    const auto stored = m_store->addPin(s, note, kNoLimit, &error);
    QVERIFY2(stored, qPrintable(error));

    const QList<Pin> pins = m_store->pins(s);
    QCOMPARE(pins.size(), 3);
    QCOMPARE(pins[0].kind, Pin::Kind::Message);
    QCOMPARE(pins[1].kind, Pin::Kind::Selection);
    QCOMPARE(pins[1].messageId, ids[0]);
    QCOMPARE(pins[2].source, Pin::Source::Model);
    QCOMPARE(pins[2].reason, u"the user said so"_s);
    QCOMPARE(m_store->overlays(s).pins, pins);

    // Unpin is one call.
    QVERIFY(m_store->removePin(pins[1].id, &error));
    QCOMPARE(m_store->pins(s).size(), 2);
    QVERIFY(!m_store->removePin(pins[1].id, &error)); // already gone: says so
    QVERIFY(error.contains(QString::number(pins[1].id)));
}

void TestPinStore::survivesReopen()
{
    QList<qint64> ids;
    const QString s = makeSession(&ids);
    QVERIFY(m_store->addPin(s, pinOf(Pin::Kind::Note, 0, u"remember: 日本語 🙂"_s), kNoLimit));
    const QList<Pin> before = m_store->pins(s);
    m_store->close();
    SessionStore reopened;
    QVERIFY(reopened.open(m_dir->filePath(u"s.db"_s)));
    const QList<Pin> after = reopened.pins(s);
    QCOMPARE(after, before);
    QCOMPARE(after.first().text, u"remember: 日本語 🙂"_s);
    // Deleting the session takes its pins.
    QVERIFY(reopened.deleteSession(s));
    QVERIFY(reopened.pins(s).isEmpty());
}

void TestPinStore::hostilePins()
{
    QList<qint64> ids;
    const QString s = makeSession(&ids);
    QList<qint64> otherIds;
    const QString other = makeSession(&otherIds);
    QString error;
    // A selection that is not in its message, a message of another session, one that does not
    // exist, a blank note: each refused, nothing stored.
    QVERIFY(!m_store->addPin(s, pinOf(Pin::Kind::Selection, ids[0], u"not there"_s), kNoLimit, &error));
    QVERIFY(error.contains(u"not part of message"_s));
    QVERIFY(!m_store->addPin(s, pinOf(Pin::Kind::Message, otherIds[0], {}), kNoLimit, &error));
    QVERIFY(!m_store->addPin(s, pinOf(Pin::Kind::Message, 999999, {}), kNoLimit, &error));
    QVERIFY(!m_store->addPin(s, pinOf(Pin::Kind::Note, 0, u"  \n "_s), kNoLimit, &error));
    QVERIFY(m_store->pins(s).isEmpty());
    // SQL in the text is text.
    QVERIFY(m_store->addPin(s, pinOf(Pin::Kind::Note, 0, u"'); DROP TABLE pins; --"_s), kNoLimit, &error));
    QCOMPARE(m_store->pins(s).constFirst().text, u"'); DROP TABLE pins; --"_s);
}

void TestPinStore::budgetRefusal()
{
    QList<qint64> ids;
    const QString s = makeSession(&ids);
    QString error;
    QVERIFY(m_store->addPin(s, pinOf(Pin::Kind::Note, 0, QString(300, u'a')), 200, &error));
    const qint64 have = PinnedSection::tokens(m_store->pins(s));
    // The second would take the set past 200 tokens: refused, saying by how much.
    const QList<Pin> wouldBe = {m_store->pins(s).constFirst(), pinOf(Pin::Kind::Note, 0, QString(800, u'b'))};
    const qint64 need = PinnedSection::tokens(wouldBe);
    QVERIFY(need > 200 && have <= 200);
    QVERIFY(!m_store->addPin(s, pinOf(Pin::Kind::Note, 0, QString(800, u'b')), 200, &error));
    QVERIFY2(error.contains(QString::number(need - 200)), qPrintable(error));
    QCOMPARE(m_store->pins(s).size(), 1);

    // A session's budget follows its policy: Warn of the window minus its system prompt.
    SessionInfo info = *m_store->session(s);
    CompactionPolicy policy;
    policy.contextWindow = 1000;
    info.policy = policy.toJson();
    QCOMPARE(PinBudget::forSession(info), qint64(600 - TokenEstimate::tokensForBytes(TokenEstimate::utf8Bytes(info.systemPrompt))));
}

void TestPinStore::exportAndImport()
{
    QList<qint64> ids;
    const QString s = makeSession(&ids);
    QVERIFY(m_store->addPin(s, pinOf(Pin::Kind::Message, ids[1], {}), kNoLimit));
    QVERIFY(m_store->addPin(s, pinOf(Pin::Kind::Selection, ids[0], u"migrations folder"_s), kNoLimit));
    Pin note = pinOf(Pin::Kind::Note, 0, u"line one\nline two"_s);
    note.source = Pin::Source::Model;
    note.reason = u"asked to remember"_s;
    QVERIFY(m_store->addPin(s, note, kNoLimit));
    const QString file = m_dir->filePath(u"export.jsonl"_s);
    QString error;
    QVERIFY2(m_store->exportSession(s, file, &error), qPrintable(error));

    const auto doc = SessionExport::read(file, &error);
    QVERIFY2(doc, qPrintable(error));
    QCOMPARE(doc->pins.size(), 3);
    QCOMPARE(doc->pins[0].messageId, 2); // by position in the file

    const auto imported = m_store->importSession(file, m_dir->path(), &error);
    QVERIFY2(imported, qPrintable(error));
    const QList<Pin> original = m_store->pins(s);
    const QList<Pin> copy = m_store->pins(*imported);
    QCOMPARE(copy.size(), original.size());
    const QList<Message> history = m_store->history(*imported);
    for (qsizetype i = 0; i < copy.size(); ++i) {
        QCOMPARE(copy[i].kind, original[i].kind);
        QCOMPARE(copy[i].source, original[i].source);
        QCOMPARE(copy[i].text, original[i].text);
        QCOMPARE(copy[i].reason, original[i].reason);
        QCOMPARE(copy[i].createdAt, original[i].createdAt);
        if (copy[i].kind != Pin::Kind::Note) {
            // The imported pin names the imported copy of its message.
            const auto m = std::find_if(history.cbegin(), history.cend(), [&](const Message &x) { return x.id == copy[i].messageId; });
            QVERIFY(m != history.cend());
            QVERIFY(Pin::textOf(*m).contains(copy[i].text));
        }
    }
}

void TestPinStore::exportHostilePinLines_data()
{
    QTest::addColumn<QByteArray>("pinLine");
    QTest::addColumn<QString>("problem");
    QTest::newRow("unknown kind") << QByteArray(R"({"type":"pin","kind":"everything","source":"user","message":null,"text":"x","reason":"","created_at":null})")
                                  << u"unknown kind"_s;
    QTest::newRow("message outside the file") << QByteArray(R"({"type":"pin","kind":"message","source":"user","message":7,"text":"x","reason":"","created_at":null})")
                                              << u"not in the file"_s;
    QTest::newRow("no message for a selection") << QByteArray(R"({"type":"pin","kind":"selection","source":"user","message":null,"text":"x","reason":"","created_at":null})")
                                                << u"not in the file"_s;
    QTest::newRow("empty text") << QByteArray(R"({"type":"pin","kind":"note","source":"model","message":null,"text":"  ","reason":"","created_at":null})")
                                << u"no text"_s;
    QTest::newRow("text not a string") << QByteArray(R"({"type":"pin","kind":"note","source":"user","message":null,"text":{"a":1},"reason":"","created_at":null})")
                                       << u"text"_s;
    QTest::newRow("negative message") << QByteArray(R"({"type":"pin","kind":"message","source":"user","message":-1,"text":"x","reason":"","created_at":null})")
                                      << u"message"_s;
}

void TestPinStore::exportHostilePinLines()
{
    QFETCH(QByteArray, pinLine);
    QFETCH(QString, problem);
    QList<qint64> ids;
    const QString s = makeSession(&ids);
    const QString file = m_dir->filePath(u"export.jsonl"_s);
    QVERIFY(m_store->exportSession(s, file));
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QList<QByteArray> lines = f.readAll().split('\n');
    f.close();
    // Before the end line, which then counts one pin.
    while (!lines.isEmpty() && lines.constLast().trimmed().isEmpty())
        lines.removeLast();
    QByteArray end = lines.takeLast();
    end.replace(R"("pins":0)", R"("pins":1)");
    lines << pinLine << end;
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(lines.join('\n') + '\n');
    f.close();
    QString error;
    QVERIFY(!SessionExport::read(file, &error));
    QVERIFY2(error.contains(problem), qPrintable(error));
    const qsizetype sessions = m_store->listSessions().size();
    QVERIFY(!m_store->importSession(file, m_dir->path(), &error));
    QCOMPARE(m_store->listSessions().size(), sessions); // nothing half imported
}

void TestPinStore::replayInputCarriesPins()
{
    QList<qint64> ids;
    const QString s = makeSession(&ids);
    QVERIFY(m_store->addPin(s, pinOf(Pin::Kind::Note, 0, u"keep the API stable"_s), kNoLimit));
    QString error;
    const auto input = ReplayInput::fromStore(*m_store, s, &error);
    QVERIFY2(input, qPrintable(error));
    QCOMPARE(input->pins, m_store->pins(s));
    const Simulator::Input sim = input->simulatorInput(input->defaultPolicy(), SummaryModel::extractive());
    QCOMPARE(sim.pins, input->pins);
}

QTEST_GUILESS_MAIN(TestPinStore)
#include "tst_pinstore.moc"
