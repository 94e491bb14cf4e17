#include "SummaryReviewDialog.h"

#include "compaction/TokenEstimate.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// What the summariser read, one line per message, as docs/COMPACTION.md section 5 shows it. A head
// of megabytes is cut: the text box stays responsive, and the summary is what matters here.
QString replacedText(const QList<Message> &messages)
{
    constexpr qsizetype kMaxChars = 200'000;
    QString out;
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const Message &m = messages[i];
        if (out.size() > kMaxChars) {
            const qsizetype left = messages.size() - i;
            out += u"\n\n"_s + (left == 1 ? SummaryReviewDialog::tr("(1 more message not shown)")
                                           : SummaryReviewDialog::tr("(%1 more messages not shown)").arg(left));
            break;
        }
        if (!out.isEmpty())
            out += u"\n\n"_s;
        if (m.isToolResult()) {
            out += u"[tool_result "_s + m.toolCallId + u"]: "_s + m.content;
            continue;
        }
        out += u'[' + roleName(m.role) + u"]: "_s + m.content;
        for (const ToolCall &call : m.toolCalls)
            out += u"\n[tool_call "_s + call.name + u'(' + call.id + u")]: "_s + call.arguments;
    }
    return out;
}

} // namespace

SummaryReviewDialog::SummaryReviewDialog(QWidget *parent)
    : QDialog(parent)
    , m_heading(new QLabel(this))
    , m_tokens(new QLabel(this))
    , m_origin(new QLabel(this))
    , m_replaced(new QPlainTextEdit(this))
    , m_summaryEdit(new QPlainTextEdit(this))
    , m_accept(new QPushButton(this))
    , m_reject(new QPushButton(this))
    , m_reset(new QPushButton(tr("Reset to Draft"), this))
{
    setObjectName(u"SummaryReviewDialog"_s);
    setWindowTitle(tr("Review the Summary"));
    m_heading->setObjectName(u"ReviewHeading"_s);
    m_heading->setWordWrap(true);
    m_tokens->setObjectName(u"ReviewTokens"_s);
    m_origin->setObjectName(u"ReviewOrigin"_s);
    m_origin->setWordWrap(true);
    m_origin->hide();
    QFont bold = m_tokens->font();
    bold.setBold(true);
    m_tokens->setFont(bold);

    m_replaced->setObjectName(u"ReviewReplaced"_s);
    m_replaced->setReadOnly(true);
    m_replaced->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_replaced->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    auto *left = new QGroupBox(tr("What it replaces"), this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->addWidget(m_replaced);

    auto *right = new QGroupBox(tr("The checkpoint (editable)"), this);
    // The summary holds most of the text: it takes most of the height, each anchor a few lines.
    auto *form = new QVBoxLayout;
    auto addField = [this, form](const QString &label, QPlainTextEdit *edit, int minimumHeight, int stretch) {
        auto *caption = new QLabel(label, this);
        caption->setBuddy(edit);
        edit->setTabChangesFocus(true);
        edit->setMinimumHeight(minimumHeight);
        form->addWidget(caption);
        form->addWidget(edit, stretch);
        connect(edit, &QPlainTextEdit::textChanged, this, &SummaryReviewDialog::updateTokens);
    };
    for (AnchorKind kind : kAllAnchorKinds) {
        auto *edit = new QPlainTextEdit(this);
        edit->setObjectName(u"ReviewAnchor_"_s + anchorKey(kind));
        m_anchorEdits[size_t(kind)] = edit;
        addField(anchorHeader(kind), edit, 54, 1);
    }
    m_summaryEdit->setObjectName(u"ReviewSummary"_s);
    addField(tr("Summary"), m_summaryEdit, 120, 4);
    auto *formHolder = new QWidget(this);
    formHolder->setLayout(form);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(formHolder);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->addWidget(scroll);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);

    m_accept->setObjectName(u"ReviewAccept"_s);
    m_reject->setObjectName(u"ReviewReject"_s);
    m_reset->setObjectName(u"ReviewReset"_s);
    m_accept->setDefault(true);
    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_accept, QDialogButtonBox::AcceptRole);
    buttons->addButton(m_reject, QDialogButtonBox::RejectRole);
    buttons->addButton(m_reset, QDialogButtonBox::ResetRole);
    connect(m_accept, &QPushButton::clicked, this, [this] { answer(ReviewDecision::Verdict::Accept); });
    connect(m_reject, &QPushButton::clicked, this, [this] { answer(ReviewDecision::Verdict::Reject); });
    connect(m_reset, &QPushButton::clicked, this, [this] { fill(m_draft.anchors, m_draft.summary); });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_heading);
    layout->addWidget(m_tokens);
    layout->addWidget(m_origin);
    layout->addWidget(splitter, 1);
    layout->addWidget(buttons);
    resize(1200, 760);
}

SummaryReviewDialog *SummaryReviewDialog::openBeside(QWidget *window)
{
    auto *dialog = new SummaryReviewDialog(window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::NonModal);
    return dialog;
}

void SummaryReviewDialog::setDraft(const SummaryDraft &draft)
{
    m_draft = draft;
    m_answered = false;
    m_revision = false;
    m_checkpointId = 0;
    setWindowTitle(tr("Review the Summary"));
    const QString messages = draft.replaced.size() == 1 ? tr("1 message") : tr("%1 messages").arg(draft.replaced.size());
    m_heading->setText(tr("The %1 tier wants to replace %2 with this checkpoint. The agent waits until you accept it "
                          "(edited or not) or reject it; a rejected summary is drafted again at the next tier.")
                           .arg(tierDisplayName(draft.tier), messages));
    m_accept->setText(tr("Accept"));
    m_accept->setToolTip(tr("Commit the checkpoint as shown; an edit is kept as a new version beside the draft"));
    m_reject->setText(tr("Reject"));
    m_reject->setToolTip(tr("Keep the history; the summary is drafted again at the next tier"));
    m_replaced->setPlainText(replacedText(draft.replaced));
    // Said so the user knows the draft was not written just now (and what was added when it fired).
    if (draft.draftedAhead()) {
        // One sentence each, so a translation can order it as its language wants.
        m_origin->setText(draft.summarisedAtTier > 0
                              ? tr("Drafted in the background at request %1; the newest %n message(s) were added when the tier fired.",
                                   nullptr, draft.summarisedAtTier)
                                    .arg(draft.draftedAtRequest)
                              : tr("Drafted in the background at request %1.").arg(draft.draftedAtRequest));
    }
    m_origin->setVisible(draft.draftedAhead());
    fill(draft.anchors, draft.summary);
}

void SummaryReviewDialog::setCheckpoint(const Checkpoint &checkpoint)
{
    SummaryDraft d;
    d.tier = checkpoint.tier;
    d.anchors = checkpoint.anchors;
    d.summary = checkpoint.summary;
    d.replaced = {Message::user(checkpoint.text)};
    d.tokensBefore = TokenEstimate::tokensForBytes(TokenEstimate::utf8Bytes(checkpoint.text));
    // The offload references the checkpoint lists stay as they are: only anchors and summary change.
    d.keptBytes = TokenEstimate::utf8Bytes(checkpoint.text)
        - TokenEstimate::utf8Bytes(checkpointMessageText(checkpoint.anchors, checkpoint.summary, {}));
    m_draft = d;
    m_answered = false;
    m_revision = true;
    m_checkpointId = checkpoint.id;
    setWindowTitle(tr("Edit the Checkpoint"));
    m_heading->setText(tr("Version %1 of this checkpoint. Committing makes a new version that the following requests "
                          "send; Undo in the Compactions dock goes back a version.")
                           .arg(checkpoint.version));
    m_accept->setText(tr("Commit New Version"));
    m_accept->setToolTip(tr("Store the edit as a new version for the requests that follow"));
    m_reject->setText(tr("Cancel"));
    m_reject->setToolTip({});
    m_replaced->setPlainText(checkpoint.text);
    m_origin->hide();
    fill(d.anchors, d.summary);
}

void SummaryReviewDialog::fill(const Anchors &anchors, const QString &summary)
{
    for (AnchorKind kind : kAllAnchorKinds)
        m_anchorEdits[size_t(kind)]->setPlainText(anchors.value(kind));
    m_summaryEdit->setPlainText(summary);
    updateTokens();
}

Anchors SummaryReviewDialog::editedAnchors() const
{
    Anchors a;
    for (AnchorKind kind : kAllAnchorKinds)
        a.setValue(kind, m_anchorEdits[size_t(kind)]->toPlainText().trimmed());
    return a;
}

QString SummaryReviewDialog::editedSummary() const
{
    return m_summaryEdit->toPlainText().trimmed();
}

bool SummaryReviewDialog::isEdited() const
{
    return editedAnchors() != m_draft.anchors || editedSummary() != m_draft.summary.trimmed();
}

qint64 SummaryReviewDialog::tokensAfter() const
{
    return m_draft.tokensAfter(editedAnchors(), editedSummary());
}

QString SummaryReviewDialog::tokensText() const
{
    const QLocale locale;
    const qint64 before = m_draft.tokensBefore;
    const qint64 after = tokensAfter();
    const QString change = before > 0 ? locale.toString(100.0 * double(after - before) / double(before), 'f', 0) + u'%'
                                      : QString();
    const QString what = m_revision ? tr("Checkpoint tokens: %1 → %2 (%3)") : tr("Context tokens: %1 → %2 (%3)");
    QString text = what.arg(locale.toString(before), locale.toString(after), change) + (isEdited() ? tr(" · edited") : QString());
    if (!canAccept())
        text += u'\n' + tr("This checkpoint is not smaller than the messages it replaces, so it cannot be accepted as a "
                           "compaction: shorten it, or reject it.");
    return text;
}

bool SummaryReviewDialog::canAccept() const
{
    // The engine adds no checkpoint that is not smaller than what it replaces (the same rule).
    return m_revision || m_draft.shrinks(editedAnchors(), editedSummary());
}

void SummaryReviewDialog::updateTokens()
{
    m_tokens->setText(tokensText());
    m_reset->setEnabled(isEdited());
    m_accept->setEnabled(canAccept());
}

void SummaryReviewDialog::done(int result)
{
    // Closed without an answer (Esc, the window's close button): a review is rejected, so the
    // agent never waits on a dialog that is gone.
    if (!m_answered && !m_revision) {
        m_answered = true;
        Q_EMIT decided(ReviewDecision::reject());
    }
    QDialog::done(result);
}

void SummaryReviewDialog::answer(ReviewDecision::Verdict verdict)
{
    if (m_answered || (verdict == ReviewDecision::Verdict::Accept && !canAccept()))
        return;
    m_answered = true;
    if (verdict == ReviewDecision::Verdict::Accept) {
        // Unedited: the draft exactly as drafted (no trimming difference makes a version).
        Q_EMIT decided(isEdited() ? ReviewDecision::accept(editedAnchors(), editedSummary())
                                  : ReviewDecision::accept(m_draft.anchors, m_draft.summary));
        accept();
    } else {
        if (!m_revision)
            Q_EMIT decided(ReviewDecision::reject());
        reject();
    }
}

} // namespace wl
