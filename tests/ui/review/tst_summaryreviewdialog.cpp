// The review dialog: shows a draft next to what it replaces with the tokens before and after,
// follows edits, and answers exactly once (Accept with the text as shown, Reject, or closing,
// which rejects so the agent never waits on a dialog that is gone). In revision mode it commits
// a new version or cancels without an answer. It saves a picture of the dialog to
// WATERLINE_REVIEW_SCREENSHOT (else the temp folder); the README's picture, the demo session's
// checkpoint in the editor, is `waterline_shots edit-checkpoint`.
#include "review/SummaryReviewDialog.h"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;


namespace {

SummaryDraft fixtureDraft()
{
    SummaryDraft d;
    d.recordId = u"rec-7"_s;
    d.requestIndex = 41;
    d.tier = Tier::Soft;
    d.anchors.setValue(AnchorKind::UserIntent, u"Add a --dry-run flag to the importer and keep the existing CLI stable"_s);
    d.anchors.setValue(AnchorKind::ExecutionProgress,
                       u"- read src/import/cli.py and src/import/writer.py\n- added DryRunWriter (edited writer.py)\n"
                       "- ran \"pytest tests/import\": 2 failed"_s);
    d.anchors.setValue(AnchorKind::KeyDecision, u"- I'll wrap the writer instead of adding flags to every call\n"
                                                 "- User: never touch the migrations folder"_s);
    d.anchors.setValue(AnchorKind::TriedSolution, u"- patched cli.py to skip writes: tests failed (writer still opened files); "
                                                   "then ran \"pytest tests/import\": passed"_s);
    d.anchors.setValue(AnchorKind::NextStep, u"- document --dry-run in README\n- add a test for the summary line"_s);
    d.summary = u"The importer gained a --dry-run flag through a DryRunWriter that records instead of writing. "
                "Two tests failed until the CLI stopped opening output files early; all pass now."_s;
    d.replaced = {
        Message::user(u"Add a --dry-run flag to the importer. Keep the CLI stable, and never touch the migrations folder."_s),
        Message::assistant(u"I'll read the CLI entry point first."_s,
                           {ToolCall{u"call_1"_s, u"read_file"_s, u"{\"path\":\"src/import/cli.py\"}"_s, true}}),
        Message::toolResult(u"call_1"_s, u"import argparse\nfrom .writer import Writer\n\ndef main(argv=None):\n    parser = argparse.ArgumentParser()\n    ..."_s),
        Message::assistant(u"I'll wrap the writer instead of adding flags to every call."_s),
    };
    d.step = SummarizerStep::MainModel;
    d.tokensBefore = 48210;
    d.keptBytes = 4 * 20000;
    d.replacedBytes = 4 * 48210 - d.keptBytes;
    return d;
}

} // namespace

class TestSummaryReviewDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void showsDraftAndTokens();
    void saysWhenDraftedAhead();
    void acceptUnedited();
    void acceptEdited();
    void notSmallerCannotBeAccepted();
    void rejectAndCloseAnswerOnce();
    void resetRestoresDraft();
    void revisionCommitsOrCancels();
    void screenshot();
};

void TestSummaryReviewDialog::initTestCase()
{
    qRegisterMetaType<wl::ReviewDecision>();
}

void TestSummaryReviewDialog::showsDraftAndTokens()
{
    SummaryReviewDialog dialog;
    const SummaryDraft draft = fixtureDraft();
    dialog.setDraft(draft);
    QCOMPARE(dialog.anchorEdit(AnchorKind::UserIntent)->toPlainText(), draft.anchors.value(AnchorKind::UserIntent));
    QCOMPARE(dialog.summaryEdit()->toPlainText(), draft.summary);
    auto *replaced = dialog.findChild<QPlainTextEdit *>(u"ReviewReplaced"_s);
    QVERIFY(replaced && replaced->isReadOnly());
    QVERIFY(replaced->toPlainText().contains(u"[tool_call read_file(call_1)]"_s));
    QVERIFY(replaced->toPlainText().contains(u"[tool_result call_1]: import argparse"_s));
    QCOMPARE(dialog.tokensAfter(), draft.tokensAfter());
    auto *tokens = dialog.findChild<QLabel *>(u"ReviewTokens"_s);
    QVERIFY(tokens->text().contains(QLocale().toString(draft.tokensBefore)));
    QVERIFY(tokens->text().contains(QLocale().toString(draft.tokensAfter())));
    QVERIFY(!dialog.isEdited());

    // Tokens follow the edit: a longer summary costs more.
    const qint64 before = dialog.tokensAfter();
    dialog.summaryEdit()->setPlainText(draft.summary + QString(400, u'x'));
    QCOMPARE(dialog.tokensAfter(), before + 100);
    QVERIFY(dialog.isEdited());
    QVERIFY(tokens->text().contains(QLocale().toString(before + 100)));
}

void TestSummaryReviewDialog::saysWhenDraftedAhead()
{
    SummaryReviewDialog dialog;
    auto *origin = dialog.findChild<QLabel *>(u"ReviewOrigin"_s);
    QVERIFY(origin);
    dialog.setDraft(fixtureDraft()); // written when the tier fired: nothing to say
    QVERIFY(origin->isHidden());

    SummaryDraft ahead = fixtureDraft();
    ahead.draftedAtRequest = 38;
    dialog.setDraft(ahead);
    QVERIFY(!origin->isHidden());
    QVERIFY2(origin->text().contains(u"background at request 38"_s), qPrintable(origin->text()));
    QVERIFY(!origin->text().contains(u"added"_s));

    ahead.summarisedAtTier = 3;
    dialog.setDraft(ahead);
    QVERIFY2(origin->text().contains(u"3 message"_s), qPrintable(origin->text()));

    // A past checkpoint's edit is no draft.
    Checkpoint cp;
    cp.text = checkpointMessageText(ahead.anchors, ahead.summary, {});
    cp.anchors = ahead.anchors;
    cp.summary = ahead.summary;
    dialog.setCheckpoint(cp);
    QVERIFY(origin->isHidden());
}

void TestSummaryReviewDialog::acceptUnedited()
{
    SummaryReviewDialog dialog;
    const SummaryDraft draft = fixtureDraft();
    dialog.setDraft(draft);
    QSignalSpy decided(&dialog, &SummaryReviewDialog::decided);
    dialog.acceptButton()->click();
    QCOMPARE(decided.size(), 1);
    const auto d = decided.at(0).at(0).value<ReviewDecision>();
    QCOMPARE(d.verdict, ReviewDecision::Verdict::Accept);
    QCOMPARE(d.anchors, draft.anchors); // exactly the draft: no version is made
    QCOMPARE(d.summary, draft.summary);
}

void TestSummaryReviewDialog::acceptEdited()
{
    SummaryReviewDialog dialog;
    dialog.setDraft(fixtureDraft());
    QSignalSpy decided(&dialog, &SummaryReviewDialog::decided);
    dialog.anchorEdit(AnchorKind::NextStep)->setPlainText(u"  - ship it  "_s);
    dialog.summaryEdit()->setPlainText(u"Edited by the user."_s);
    dialog.acceptButton()->click();
    QCOMPARE(decided.size(), 1);
    const auto d = decided.at(0).at(0).value<ReviewDecision>();
    QCOMPARE(d.verdict, ReviewDecision::Verdict::Accept);
    QCOMPARE(d.anchors.value(AnchorKind::NextStep), u"- ship it"_s);
    QCOMPARE(d.summary, u"Edited by the user."_s);
    QCOMPARE(d.anchors.value(AnchorKind::UserIntent), fixtureDraft().anchors.value(AnchorKind::UserIntent));
}

void TestSummaryReviewDialog::notSmallerCannotBeAccepted()
{
    // Issue #31: a draft whose checkpoint is not smaller than what it replaces is flagged, and
    // Accept cannot commit it (the engine would refuse it anyway).
    SummaryReviewDialog dialog;
    SummaryDraft draft = fixtureDraft();
    draft.replacedBytes = 600; // the messages it replaces are smaller than the checkpoint text
    dialog.setDraft(draft);
    auto *tokens = dialog.findChild<QLabel *>(u"ReviewTokens"_s);
    QVERIFY(tokens);
    QVERIFY(!dialog.acceptButton()->isEnabled());
    QVERIFY2(tokens->text().contains(u"not smaller than the messages it replaces"_s), qPrintable(tokens->text()));
    QSignalSpy decided(&dialog, &SummaryReviewDialog::decided);
    QMetaObject::invokeMethod(dialog.acceptButton(), "click"); // even a click that gets through commits nothing
    QCOMPARE(decided.size(), 0);
    if (const QString path = qEnvironmentVariable("WATERLINE_REVIEW_FLAG_SCREENSHOT"); !path.isEmpty()) {
        dialog.resize(1400, 860);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QVERIFY(dialog.grab().toImage().save(path));
        dialog.hide();
    }
    // Shortened below what it replaces, it can be accepted.
    draft.replacedBytes = 50'000;
    dialog.setDraft(draft);
    QVERIFY(dialog.acceptButton()->isEnabled());
    QVERIFY(!tokens->text().contains(u"not smaller"_s));
}

void TestSummaryReviewDialog::rejectAndCloseAnswerOnce()
{
    {
        SummaryReviewDialog dialog;
        dialog.setDraft(fixtureDraft());
        QSignalSpy decided(&dialog, &SummaryReviewDialog::decided);
        dialog.rejectButton()->click();
        dialog.close();
        QCOMPARE(decided.size(), 1);
        QCOMPARE(decided.at(0).at(0).value<ReviewDecision>().verdict, ReviewDecision::Verdict::Reject);
    }
    {
        SummaryReviewDialog dialog;
        dialog.setDraft(fixtureDraft());
        dialog.show();
        QSignalSpy decided(&dialog, &SummaryReviewDialog::decided);
        QTest::keyClick(&dialog, Qt::Key_Escape); // closing rejects: the agent never waits on a gone dialog
        QCOMPARE(decided.size(), 1);
        QCOMPARE(decided.at(0).at(0).value<ReviewDecision>().verdict, ReviewDecision::Verdict::Reject);
    }
}

void TestSummaryReviewDialog::resetRestoresDraft()
{
    SummaryReviewDialog dialog;
    const SummaryDraft draft = fixtureDraft();
    dialog.setDraft(draft);
    auto *reset = dialog.findChild<QPushButton *>(u"ReviewReset"_s);
    QVERIFY(!reset->isEnabled());
    dialog.anchorEdit(AnchorKind::KeyDecision)->setPlainText(u"changed"_s);
    QVERIFY(reset->isEnabled());
    reset->click();
    QCOMPARE(dialog.editedAnchors(), draft.anchors);
    QVERIFY(!dialog.isEdited());
}

void TestSummaryReviewDialog::revisionCommitsOrCancels()
{
    Checkpoint cp;
    cp.id = 12;
    cp.version = 2;
    cp.tier = Tier::Full;
    cp.anchors = fixtureDraft().anchors;
    cp.summary = u"Stored summary."_s;
    OffloadEntry ref;
    ref.relativePath = u".waterline/tool_results/s/call_9.txt"_s;
    ref.lines = 10;
    ref.bytes = 900;
    cp.text = checkpointMessageText(cp.anchors, cp.summary, {ref});

    SummaryReviewDialog dialog;
    dialog.setCheckpoint(cp);
    QVERIFY(dialog.isRevision());
    QCOMPARE(dialog.checkpointId(), qint64(12));
    // Unedited, the estimate is the checkpoint as stored (its references included).
    QCOMPARE(dialog.tokensAfter(), qint64(cp.text.toUtf8().size() / 4));
    QSignalSpy decided(&dialog, &SummaryReviewDialog::decided);
    dialog.rejectButton()->click(); // Cancel: nothing to decide
    QCOMPARE(decided.size(), 0);

    dialog.setCheckpoint(cp);
    dialog.summaryEdit()->setPlainText(u"Revised."_s);
    dialog.acceptButton()->click();
    QCOMPARE(decided.size(), 1);
    QCOMPARE(decided.at(0).at(0).value<ReviewDecision>().summary, u"Revised."_s);
}

void TestSummaryReviewDialog::screenshot()
{
    QString path = qEnvironmentVariable("WATERLINE_REVIEW_SCREENSHOT");
    if (path.isEmpty())
        path = QDir::temp().filePath(u"waterline-summary-review.png"_s);
    SummaryReviewDialog dialog;
    SummaryDraft draft = fixtureDraft(); // drafted ahead at Warn, topped up when Soft fired
    draft.draftedAtRequest = 38;
    draft.summarisedAtTier = 3;
    dialog.setDraft(draft);
    dialog.anchorEdit(AnchorKind::NextStep)->setPlainText(u"- document --dry-run in README\n- add a test for the summary line\n"
                                                          "- ask before changing the CLI's exit codes"_s);
    dialog.resize(1400, 860);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTest::qWait(200);
    const QImage image = dialog.grab().toImage();
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), dialog.size() * dialog.devicePixelRatio());
    QVERIFY(image.save(path));
}

QTEST_MAIN(TestSummaryReviewDialog)
#include "tst_summaryreviewdialog.moc"
