// The pins list (PinsModel, PinsPanel) and the conversation's pin menu (MessagePinMenu).
#include "compaction/PinnedSection.h"
#include "conversation/ConversationModel.h"
#include "model/Message.h"
#include "pins/MessagePinMenu.h"
#include "pins/PinSelectionDialog.h"
#include "pins/PinsModel.h"
#include "pins/PinsPanel.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QListView>
#include <QLocale>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTextCursor>
#include <QTreeView>

#include <memory>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
Pin pin(qint64 id, Pin::Kind kind, qint64 messageId, const QString &text, Pin::Source source = Pin::Source::User)
{
    Pin p;
    p.id = id;
    p.kind = kind;
    p.messageId = messageId;
    p.text = text;
    p.source = source;
    return p;
}
} // namespace

class TestPinsModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modelTester();
    void rowsShowWhatIsPinned();
    void panelUnpinsInOneClick();
    void panelSummarySaysTheBudget();
    void menuOffersPinOrUnpin();
    void pinMessageSaysWhatItPins();
    void selectionDialogGivesStoredLineBreaks();
};

void TestPinsModel::modelTester()
{
    PinsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setPins({pin(1, Pin::Kind::Note, 0, u"a"_s)});
    model.setPins({pin(1, Pin::Kind::Note, 0, u"a"_s), pin(2, Pin::Kind::Message, 5, u"b\nc"_s)});
    model.setPins({});
    model.setPins({pin(3, Pin::Kind::Selection, 7, u"x"_s, Pin::Source::Model)});
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.columnCount(), int(PinsModel::ColumnCount));
}

void TestPinsModel::rowsShowWhatIsPinned()
{
    PinsModel model;
    Pin note = pin(9, Pin::Kind::Note, 0, u"never touch the migrations folder\nsecond line"_s, Pin::Source::Model);
    note.reason = u"the user asked"_s;
    model.setPins({pin(4, Pin::Kind::Message, 12, u"Run make -j4"_s), note});
    const QString first = model.index(0, PinsModel::PinColumn).data().toString();
    QVERIFY2(first.contains(u"12"_s) && first.contains(u"Run make -j4"_s), qPrintable(first));
    const QString second = model.index(1, PinsModel::PinColumn).data().toString();
    QVERIFY(second.contains(u"never touch the migrations folder"_s));
    QVERIFY(!second.contains(u"second line"_s)); // one line in the list...
    const QString tip = model.index(1, PinsModel::PinColumn).data(Qt::ToolTipRole).toString();
    QVERIFY(tip.contains(u"second line"_s) && tip.contains(u"the user asked"_s)); // ...all of it in the tooltip
    QVERIFY(second.contains(u"assistant"_s));
    QCOMPARE(model.index(1, 0).data(PinsModel::PinIdRole).toLongLong(), 9);
    QCOMPARE(model.index(0, 0).data(PinsModel::MessageIdRole).toLongLong(), 12);
    QCOMPARE(model.rowOf(9), 1);
    QCOMPARE(model.rowOf(77), -1);
}

void TestPinsModel::panelUnpinsInOneClick()
{
    PinsPanel panel;
    panel.resize(500, 300);
    panel.setPins({pin(4, Pin::Kind::Message, 12, u"Run make"_s), pin(5, Pin::Kind::Note, 0, u"tabs"_s)}, 10, 1000, true);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy unpin(&panel, &PinsPanel::unpinRequested);
    QSignalSpy chosen(&panel, &PinsPanel::messageChosen);
    QTreeView *list = panel.list();
    const QRect cell = list->visualRect(panel.model()->index(1, PinsModel::UnpinColumn));
    QVERIFY(cell.isValid());
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(unpin.size(), 1);
    QCOMPARE(unpin.first().first().toLongLong(), 5);
    // A click on the text itself does not unpin.
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualRect(panel.model()->index(0, 0)).center());
    QCOMPARE(unpin.size(), 1);
    // Delete unpins the current one; activating a message pin shows its message.
    list->setCurrentIndex(panel.model()->index(0, 0));
    QTest::keyClick(list, Qt::Key_Delete);
    QCOMPARE(unpin.size(), 2);
    QCOMPARE(unpin.last().first().toLongLong(), 4);
    Q_EMIT list->activated(panel.model()->index(0, 0));
    QCOMPARE(chosen.size(), 1);
    QCOMPARE(chosen.first().first().toLongLong(), 12);
}

void TestPinsModel::panelSummarySaysTheBudget()
{
    PinsPanel panel;
    panel.setPins({}, 0, 0, false);
    QVERIFY(!panel.findChild<QPushButton *>(u"AddPinNoteButton"_s)->isEnabled());
    panel.setPins({}, 0, 500, true);
    QVERIFY(panel.findChild<QPushButton *>(u"AddPinNoteButton"_s)->isEnabled());
    QVERIFY(panel.summaryText().contains(u"Nothing pinned"_s));
    panel.setPins({pin(1, Pin::Kind::Note, 0, u"x"_s)}, 42, 7000, true);
    QVERIFY2(panel.summaryText().contains(u"42"_s) && panel.summaryText().contains(QLocale().toString(7000)),
             qPrintable(panel.summaryText()));
}

void TestPinsModel::menuOffersPinOrUnpin()
{
    ConversationModel model;
    Message user = Message::user(u"Always run the linter before committing."_s);
    user.id = 3;
    Message answer = Message::assistant(u"Understood."_s);
    answer.id = 4;
    model.appendMessages({user, answer});
    QListView view;
    view.setModel(&model);
    MessagePinMenu menu(&view);
    QCOMPARE(view.contextMenuPolicy(), Qt::CustomContextMenu);
    QSignalSpy pinRequested(&menu, &MessagePinMenu::pinMessageRequested);
    QSignalSpy unpinRequested(&menu, &MessagePinMenu::unpinRequested);
    QSignalSpy selectionRequested(&menu, &MessagePinMenu::pinSelectionRequested);

    int userRow = -1;
    for (int r = 0; r < model.rowCount(); ++r) {
        if (model.index(r, 0).data(ConversationModel::MessageIdRole).toLongLong() == 3)
            userRow = r;
    }
    QVERIFY(userRow >= 0);
    const QModelIndex index = model.index(userRow, 0);
    QCOMPARE(MessagePinMenu::targetAt(index).messageId, 3);

    std::unique_ptr<QMenu> m(menu.menuFor(index, &view));
    QVERIFY(m);
    QAction *pinAction = m->findChild<QAction *>(u"PinMessageAction"_s);
    QVERIFY(pinAction);
    QVERIFY(!m->findChild<QAction *>(u"UnpinMessageAction"_s));
    pinAction->trigger();
    QCOMPARE(pinRequested.size(), 1);
    QCOMPARE(pinRequested.first().first().toLongLong(), 3);
    m->findChild<QAction *>(u"PinSelectionAction"_s)->trigger();
    QCOMPARE(selectionRequested.size(), 1);
    QVERIFY(selectionRequested.first().at(1).toString().contains(u"linter"_s));

    // Pinned: the menu offers Unpin, with that pin's id.
    menu.setPinnedMessages({{3, 77}});
    m.reset(menu.menuFor(index, &view));
    QVERIFY(!m->findChild<QAction *>(u"PinMessageAction"_s));
    m->findChild<QAction *>(u"UnpinMessageAction"_s)->trigger();
    QCOMPARE(unpinRequested.size(), 1);
    QCOMPARE(unpinRequested.first().first().toLongLong(), 77);

    // Nothing to pin below the last row.
    QVERIFY(!menu.menuFor(QModelIndex(), &view));

    // The conversation's rows say which messages are pinned.
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(!index.data(ConversationModel::PinnedRole).toBool());
    model.setPinnedMessages({3});
    QVERIFY(index.data(ConversationModel::PinnedRole).toBool());
    QCOMPARE(changed.size(), 1);
    model.setPinnedMessages({3}); // the same set: no change to report
    QCOMPARE(changed.size(), 1);
    model.setPinnedMessages({});
    QVERIFY(!index.data(ConversationModel::PinnedRole).toBool());
}

// A one-line reply whose Write call carries a whole file: "Pin Message" says that it pins the
// arguments too, and the tokens the pin adds to every request (PinnedSection's, as the Pins list
// and the composition count them), not the one line the conversation shows.
void TestPinsModel::pinMessageSaysWhatItPins()
{
    Message user = Message::user(u"Write the config file."_s);
    user.id = 3;
    Message reply = Message::assistant(u"Written."_s);
    reply.id = 4;
    ToolCall write;
    write.id = u"call-1"_s;
    write.name = u"Write"_s;
    write.arguments = u"{\"file_path\":\"/tmp/config.toml\",\"content\":\""_s + u"key = 1\\n"_s.repeated(450) + u"\"}"_s;
    reply.toolCalls.append(write);
    Message callsOnly = Message::assistant(QString());
    callsOnly.id = 5;
    callsOnly.toolCalls.append(write);
    const QList<Message> history{user, reply, callsOnly};
    const QList<Pin> pins{pin(1, Pin::Kind::Note, 0, u"Keep it short."_s)};

    ConversationModel model;
    model.appendMessages({user, reply});
    QListView view;
    view.setModel(&model);
    MessagePinMenu menu(&view);
    menu.setSession(history, pins);

    Pin whole;
    whole.kind = Pin::Kind::Message;
    whole.messageId = 4;
    whole.text = Pin::textOf(reply);
    const qint64 tokens = PinnedSection::addedTokens(pins, whole);
    QVERIFY(tokens > 1'000); // the arguments, not "Written."
    QCOMPARE(tokens, PinnedSection::tokens(pins + QList<Pin>{whole}) - PinnedSection::tokens(pins));
    const QString label = menu.pinMessageLabel(4);
    QVERIFY2(label.contains(u"its text and the arguments of Write"_s), qPrintable(label));
    QVERIFY2(label.contains(QLocale().toString(tokens)), qPrintable(label));

    int replyRow = -1;
    for (int r = 0; r < model.rowCount() && replyRow < 0; ++r) {
        const QModelIndex index = model.index(r, 0);
        if (index.data(ConversationModel::MessageIdRole).toLongLong() == 4
            && MessagePinMenu::targetAt(index).messageId == 4)
            replyRow = r;
    }
    QVERIFY(replyRow >= 0);
    std::unique_ptr<QMenu> m(menu.menuFor(model.index(replyRow, 0), &view));
    QVERIFY(m);
    QCOMPARE(m->findChild<QAction *>(u"PinMessageAction"_s)->text(), label);

    const QString onlyCalls = menu.pinMessageLabel(5);
    QVERIFY2(onlyCalls.contains(u"the arguments of Write"_s) && !onlyCalls.contains(u"its text"_s), qPrintable(onlyCalls));
    // A message the session does not hold says no number it cannot know.
    QCOMPARE(menu.pinMessageLabel(99), u"Pin Message"_s);
}

void TestPinsModel::selectionDialogGivesStoredLineBreaks()
{
    PinSelectionDialog dialog(5, u"first line\nsecond line\nthird"_s);
    QPushButton *pin = nullptr;
    for (QPushButton *b : dialog.findChildren<QPushButton *>()) {
        if (b->text().contains(u"Pin"_s))
            pin = b;
    }
    QVERIFY(pin);
    QVERIFY(!pin->isEnabled()); // nothing selected yet
    QTextCursor cursor = dialog.editor()->textCursor();
    cursor.setPosition(6);
    cursor.setPosition(17, QTextCursor::KeepAnchor);
    dialog.editor()->setTextCursor(cursor);
    QCOMPARE(dialog.selectedText(), u"line\nsecond"_s);
    QVERIFY(pin->isEnabled());
}

QTEST_MAIN(TestPinsModel)
#include "tst_pinsmodel.moc"
