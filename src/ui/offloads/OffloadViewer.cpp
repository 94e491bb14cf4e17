#include "offloads/OffloadViewer.h"

#include "UiLogging.h"
#include "common/FontFallbacks.h"
#include "common/Highlighting.h"
#include "offloads/DefinitionMenu.h"
#include "offloads/FindBar.h"
#include "offloads/OffloadChunkReader.h"

#include <KSyntaxHighlighting/SyntaxHighlighter>

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTextBlock>
#include <QTextCursor>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;
namespace HL = wl::Highlighting;

namespace wl {

namespace {

// How much of the head the definition guess and the binary sniff look at.
constexpr qint64 kSniffBytes = 32 * 1024;

QString dataSize(qint64 bytes)
{
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

} // namespace

OffloadViewer::OffloadViewer(QWidget *parent)
    : QWidget(parent)
    , m_reader(std::make_unique<OffloadChunkReader>())
    , m_title(new QLabel(this))
    , m_definitionButton(new QToolButton(this))
    , m_definitionMenu(new DefinitionMenu(this))
    , m_wrapButton(new QToolButton(this))
    , m_stack(new QStackedWidget(this))
    , m_editor(new QPlainTextEdit(m_stack))
    , m_noticePage(new QWidget(m_stack))
    , m_notice(new QLabel(m_noticePage))
    , m_showAsText(new QPushButton(tr("Show as Text Anyway"), m_noticePage))
    , m_findBar(new FindBar(m_editor, this))
    , m_statusBar(new QWidget(this))
    , m_status(new QLabel(m_statusBar))
    , m_loadMore(new QPushButton(tr("Load More"), m_statusBar))
    , m_loadAll(new QPushButton(tr("Load All"), m_statusBar))
    , m_stop(new QPushButton(tr("Stop"), m_statusBar))
    , m_loadAllTimer(new QTimer(this))
{
    setObjectName(u"offloadViewer"_s);

    // Header: what is shown, how it is highlighted, find and wrap.
    m_title->setObjectName(u"offloadTitle"_s);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_definitionButton->setObjectName(u"definitionButton"_s);
    m_definitionButton->setPopupMode(QToolButton::InstantPopup);
    m_definitionButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_definitionButton->setToolTip(tr("Highlighting: guessed from the file name and the content; pick another here"));
    m_definitionButton->setMenu(m_definitionMenu);
    connect(m_definitionMenu, &DefinitionMenu::definitionChosen, this, &OffloadViewer::setDefinitionOverride);

    auto *findAction = new QAction(tr("Find…"), this);
    findAction->setObjectName(u"findAction"_s);
    findAction->setShortcut(QKeySequence::Find);
    findAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(findAction, &QAction::triggered, this, &OffloadViewer::showFindBar);
    addAction(findAction);
    auto *findButton = new QToolButton(this);
    findButton->setObjectName(u"findButton"_s);
    findButton->setDefaultAction(findAction);
    findButton->setAutoRaise(true);

    m_wrapButton->setObjectName(u"wrapButton"_s);
    m_wrapButton->setText(tr("Wrap"));
    m_wrapButton->setToolTip(tr("Wrap long lines"));
    m_wrapButton->setCheckable(true);
    m_wrapButton->setChecked(true);
    m_wrapButton->setAutoRaise(true);
    connect(m_wrapButton, &QToolButton::toggled, this, [this](bool on) {
        m_editor->setLineWrapMode(on ? QPlainTextEdit::WidgetWidth : QPlainTextEdit::NoWrap);
    });

    auto *header = new QHBoxLayout;
    header->setContentsMargins(4, 2, 4, 2);
    header->addWidget(m_title, 1);
    header->addWidget(m_definitionButton);
    header->addWidget(findButton);
    header->addWidget(m_wrapButton);
    // Tab in visual order: the header left to right (Find is made last), then the text.
    setTabOrder({m_definitionButton, findButton, m_wrapButton, m_editor});

    // The text: read-only, no undo history (it would double the memory), a fixed-pitch font.
    m_editor->setObjectName(u"offloadText"_s);
    m_editor->setReadOnly(true);
    m_editor->setUndoRedoEnabled(false);
    m_editor->setFont(FontFallbacks::withFallbacks(QFontDatabase::systemFont(QFontDatabase::FixedFont)));
    m_editor->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_editor->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    connect(m_editor->verticalScrollBar(), &QScrollBar::valueChanged, this, &OffloadViewer::onScrolled);

    m_notice->setObjectName(u"offloadNotice"_s);
    m_notice->setWordWrap(true);
    m_notice->setAlignment(Qt::AlignCenter);
    m_showAsText->setObjectName(u"showAsTextButton"_s);
    connect(m_showAsText, &QPushButton::clicked, this, &OffloadViewer::showBinaryAsText);
    auto *noticeLayout = new QVBoxLayout(m_noticePage);
    noticeLayout->addStretch();
    noticeLayout->addWidget(m_notice);
    noticeLayout->addWidget(m_showAsText, 0, Qt::AlignCenter);
    noticeLayout->addStretch();
    m_stack->addWidget(m_editor);
    m_stack->addWidget(m_noticePage);

    m_findBar->hide();

    // Footer: how much is shown, and the way to more.
    m_statusBar->setObjectName(u"loadBar"_s);
    m_status->setObjectName(u"loadStatus"_s);
    m_loadMore->setObjectName(u"loadMoreButton"_s);
    m_loadAll->setObjectName(u"loadAllButton"_s);
    m_stop->setObjectName(u"stopLoadingButton"_s);
    connect(m_loadMore, &QPushButton::clicked, this, &OffloadViewer::loadMore);
    connect(m_loadAll, &QPushButton::clicked, this, &OffloadViewer::loadAll);
    connect(m_stop, &QPushButton::clicked, this, &OffloadViewer::stopLoading);
    auto *footer = new QHBoxLayout(m_statusBar);
    footer->setContentsMargins(4, 2, 4, 2);
    footer->addWidget(m_status, 1);
    footer->addWidget(m_loadMore);
    footer->addWidget(m_loadAll);
    footer->addWidget(m_stop);

    m_loadAllTimer->setObjectName(u"loadAllTimer"_s);
    m_loadAllTimer->setInterval(0);
    connect(m_loadAllTimer, &QTimer::timeout, this, &OffloadViewer::loadAllStep);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(header);
    layout->addWidget(m_stack, 1);
    layout->addWidget(m_findBar);
    layout->addWidget(m_statusBar);

    // Attached while the document is empty; the viewer's palette decides the theme, the editor wears its colours.
    m_highlighter = HL::attachHighlighter(m_editor->document(), this, QString(), m_editor);
    HL::setIncremental(m_highlighter, kImmediateHighlight, m_highlightLimit);

    clear();
}

OffloadViewer::~OffloadViewer() = default;

bool OffloadViewer::openFile(const QString &path, const QString &title, const QString &fileNameHint)
{
    clear();
    m_path = path;
    m_override = m_overrideByPath.value(path);
    const QFileInfo info(path);
    m_title->setText(title.isEmpty() ? info.fileName() : title);
    m_title->setToolTip(QDir::toNativeSeparators(path));

    if (!m_reader->open(path)) {
        m_error = m_reader->errorString();
        qCWarning(lcUi) << "offload viewer:" << m_error;
        showNotice(m_error);
        updateStatus();
        return false;
    }
    const QByteArray head = m_reader->peek(kSniffBytes);
    if (OffloadChunkReader::looksBinary(head)) {
        m_binary = true;
        showNotice(tr("This result looks like binary data (%1), so it is not shown as text.").arg(dataSize(fileSize())),
                   true);
        updateStatus();
        return true;
    }
    m_guessed = HL::guessDefinition(head, fileNameHint.isEmpty() ? info.fileName() : QFileInfo(fileNameHint).fileName());
    HL::setDefinition(m_highlighter, definitionName()); // the document is empty: costs nothing yet
    updateDefinitionButton();
    m_stack->setCurrentWidget(m_editor);
    if (m_reader->size() == 0)
        m_editor->setPlaceholderText(tr("(empty)"));
    appendChunk();
    return true;
}

void OffloadViewer::clear()
{
    stopLoading();
    m_reader->close();
    m_path.clear();
    m_guessed.clear();
    m_override.clear();
    m_error.clear();
    m_binary = false;
    m_tailLineLength = 0;
    m_brokeLines = false;
    m_editor->setPlaceholderText(QString());
    m_editor->clear();
    m_findBar->close();
    m_title->setText(tr("No result selected"));
    m_title->setToolTip(QString());
    showNotice(tr("Select an offloaded result to see it here."));
    updateDefinitionButton();
    updateStatus();
}

QString OffloadViewer::filePath() const
{
    return m_path;
}

qint64 OffloadViewer::fileSize() const
{
    return m_reader->size();
}

qint64 OffloadViewer::loadedBytes() const
{
    return m_reader->consumed();
}

qint64 OffloadViewer::bytesReadFromDisk() const
{
    return m_reader->bytesReadFromDisk();
}

bool OffloadViewer::isFullyLoaded() const
{
    return m_reader->isOpen() && !m_binary && m_reader->atEnd();
}

bool OffloadViewer::isLoadingAll() const
{
    return m_loadingAll;
}

bool OffloadViewer::isBinary() const
{
    return m_binary;
}

QString OffloadViewer::errorString() const
{
    return m_error;
}

QString OffloadViewer::guessedDefinition() const
{
    return m_guessed;
}

QString OffloadViewer::definitionOverride() const
{
    return m_override;
}

QString OffloadViewer::definitionName() const
{
    if (!m_override.isEmpty())
        return m_override;
    return m_guessed.isEmpty() ? u"None"_s : m_guessed;
}

void OffloadViewer::setDefinitionOverride(const QString &name)
{
    m_override = name;
    if (!m_path.isEmpty()) {
        if (name.isEmpty())
            m_overrideByPath.remove(m_path);
        else
            m_overrideByPath.insert(m_path, name);
    }
    HL::setDefinition(m_highlighter, definitionName());
    updateDefinitionButton();
}

void OffloadViewer::setChunkSizes(qint64 firstBytes, qint64 nextBytes)
{
    m_firstChunkBytes = std::max<qint64>(firstBytes, 4);
    m_chunkBytes = std::max<qint64>(nextBytes, 4);
}

qint64 OffloadViewer::firstChunkSize() const
{
    return m_firstChunkBytes;
}

bool OffloadViewer::brokeLongLines() const
{
    return m_brokeLines;
}

qint64 OffloadViewer::chunkSize() const
{
    return m_chunkBytes;
}

void OffloadViewer::setHighlightLimit(qint64 characters)
{
    m_highlightLimit = characters;
    HL::setIncremental(m_highlighter, kImmediateHighlight, characters);
}

QPlainTextEdit *OffloadViewer::editor() const
{
    return m_editor;
}

FindBar *OffloadViewer::findBar() const
{
    return m_findBar;
}

KSyntaxHighlighting::SyntaxHighlighter *OffloadViewer::highlighter() const
{
    return m_highlighter;
}

DefinitionMenu *OffloadViewer::definitionMenu() const
{
    m_definitionMenu->build();
    return m_definitionMenu;
}

QString OffloadViewer::statusText() const
{
    return m_status->text();
}

void OffloadViewer::loadMore()
{
    if (!m_binary && m_reader->isOpen() && !m_reader->atEnd())
        appendChunk();
}

void OffloadViewer::loadAll()
{
    if (m_binary || !m_reader->isOpen() || m_reader->atEnd())
        return;
    m_loadingAll = true;
    m_loadAllTimer->start();
    updateStatus();
}

void OffloadViewer::stopLoading()
{
    m_loadAllTimer->stop();
    if (m_loadingAll) {
        m_loadingAll = false;
        updateStatus();
    }
}

void OffloadViewer::loadAllStep()
{
    if (!appendChunk() || m_reader->atEnd())
        stopLoading();
}

void OffloadViewer::showFindBar()
{
    if (m_stack->currentWidget() == m_editor)
        m_findBar->activate();
}

void OffloadViewer::showBinaryAsText()
{
    if (!m_binary || !m_reader->isOpen())
        return;
    m_binary = false;
    m_guessed = u"None"_s;
    HL::setDefinition(m_highlighter, definitionName());
    updateDefinitionButton();
    m_stack->setCurrentWidget(m_editor);
    appendChunk();
}

bool OffloadViewer::appendChunk()
{
    qint64 raw = 0;
    const bool first = m_reader->consumed() == 0;
    const QString text = breakLongLines(m_reader->readChunk(first ? m_firstChunkBytes : m_chunkBytes, &raw));
    if (raw == 0) {
        updateStatus();
        return false;
    }
    m_appending = true;
    // The reader's place in the text stays where it was (a cursor at the insertion point would be carried along).
    const QTextCursor before = m_editor->textCursor();
    const int anchor = before.anchor();
    const int position = before.position();
    QTextCursor cursor(m_editor->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(text);
    if (m_editor->textCursor().position() != position || m_editor->textCursor().anchor() != anchor) {
        QTextCursor restored(m_editor->document());
        restored.setPosition(anchor);
        restored.setPosition(position, QTextCursor::KeepAnchor);
        m_editor->setTextCursor(restored);
    }
    m_appending = false;
    updateStatus();
    Q_EMIT loadedBytesChanged(m_reader->consumed(), m_reader->size());
    return true;
}

QString OffloadViewer::breakLongLines(const QString &text)
{
    // Fast path: no line (counting the one the previous chunk left open) is too long.
    qsizetype lineStart = -m_tailLineLength;
    bool tooLong = false;
    for (qsizetype i = 0, n = text.size(); i <= n; ++i) {
        const qsizetype next = i < n ? text.indexOf(u'\n', i) : n;
        const qsizetype end = next < 0 ? n : next;
        if (end - lineStart > kMaxLineLength) {
            tooLong = true;
            break;
        }
        if (next < 0 || end >= n) {
            break;
        }
        lineStart = end + 1;
        i = end;
    }
    if (!tooLong) {
        const qsizetype lastBreak = text.lastIndexOf(u'\n');
        m_tailLineLength = lastBreak < 0 ? m_tailLineLength + text.size() : text.size() - lastBreak - 1;
        return text;
    }

    QString out;
    out.reserve(text.size() + text.size() / kMaxLineLength + 1);
    qsizetype length = m_tailLineLength;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == u'\n') {
            length = 0;
        } else if (length >= kMaxLineLength && !c.isLowSurrogate()) {
            out += u'\n';
            length = 0;
            m_brokeLines = true;
        }
        out += c;
        if (c != u'\n')
            ++length;
    }
    m_tailLineLength = length;
    return out;
}

void OffloadViewer::updateStatus()
{
    const bool open = m_reader->isOpen();
    m_statusBar->setVisible(open);
    if (!open)
        return;
    const QLocale locale;
    // A final line break leaves an empty last block that is not a line.
    const QTextDocument *doc = m_editor->document();
    const int lines = doc->blockCount() - (doc->blockCount() > 1 && doc->lastBlock().length() <= 1 ? 1 : 0);
    QString text;
    if (m_binary) {
        text = tr("Binary data, %1").arg(dataSize(m_reader->size()));
    } else if (m_reader->atEnd()) {
        text = tr("Showing all of %1 (%2 lines)").arg(dataSize(m_reader->size()),
                                                     locale.toString(lines));
    } else {
        text = tr("Showing the first %1 of %2 (%3 lines so far)")
                   .arg(dataSize(m_reader->consumed()), dataSize(m_reader->size()),
                        locale.toString(lines));
    }
    if (m_brokeLines)
        text += u" · "_s + tr("lines longer than %1 characters are shown broken").arg(locale.toString(kMaxLineLength));
    if (!m_binary && m_highlightLimit >= 0 && m_editor->document()->characterCount() > m_highlightLimit)
        text += u" · "_s + tr("highlighting covers the first %1 characters").arg(locale.toString(m_highlightLimit));
    m_status->setText(text);
    const bool more = !m_binary && !m_reader->atEnd();
    m_loadMore->setVisible(more && !m_loadingAll);
    m_loadAll->setVisible(more && !m_loadingAll);
    m_stop->setVisible(m_loadingAll);
}

void OffloadViewer::showNotice(const QString &text, bool offerText)
{
    m_notice->setText(text);
    m_showAsText->setVisible(offerText);
    m_stack->setCurrentWidget(m_noticePage);
}

void OffloadViewer::updateDefinitionButton()
{
    const QString name = definitionName();
    m_definitionButton->setText(name == u"None" ? tr("Plain text") : name);
    m_definitionMenu->setCurrent(m_override, m_guessed);
    m_definitionButton->setEnabled(m_reader->isOpen() && !m_binary);
}

void OffloadViewer::onScrolled(int value)
{
    // Reaching the end of what is loaded loads the next chunk (once per arrival at the end).
    if (m_appending || m_loadingAll || m_binary || !m_reader->isOpen() || m_reader->atEnd())
        return;
    const QScrollBar *bar = m_editor->verticalScrollBar();
    if (bar->maximum() > 0 && value >= bar->maximum())
        QMetaObject::invokeMethod(this, &OffloadViewer::loadMore, Qt::QueuedConnection);
}

} // namespace wl
