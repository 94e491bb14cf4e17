#pragma once

#include <QHash>
#include <QWidget>

#include <memory>

class QAction;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTimer;
class QToolButton;

namespace KSyntaxHighlighting {
class SyntaxHighlighter;
}

namespace wl {

class DefinitionMenu;
class FindBar;
class OffloadChunkReader;

// Shows one offloaded tool result: highlighted (definition guessed from the file name and the content, or chosen
// from a searchable menu; a choice is kept per file while the viewer lives),
// searchable (Ctrl+F), and loaded lazily: only the first chunk is read when a file opens, more on demand
// ("Load more", "Load all", or scrolling to the end), so a 100 MB result opens at once and never blocks the window.
class OffloadViewer : public QWidget
{
    Q_OBJECT
public:
    // The first chunk is a few screens' worth, read at once; "Load more" and scrolling read the bigger ones.
    static constexpr qint64 kDefaultFirstChunkBytes = 256 * 1024;
    static constexpr qint64 kDefaultChunkBytes = 1024 * 1024;
    // Longer lines are broken for display (Kate does the same): one giant line would stall the text layout.
    static constexpr int kMaxLineLength = 10000;
    // Highlighted as the text arrives (a screen or more); the rest is highlighted in the background...
    static constexpr qint64 kImmediateHighlight = 64 * 1024;
    // ... up to this many characters: past it the text stays plain (highlighting it would cost seconds).
    static constexpr qint64 kDefaultHighlightLimit = 4 * 1024 * 1024;

    explicit OffloadViewer(QWidget *parent = nullptr);
    ~OffloadViewer() override;

    // Opens `path` and shows its first chunk; `title` is shown above the text (the file name when empty).
    // `fileNameHint`: the name of the file the result shows (a read_file path), which the highlighting
    // follows before the content; `path`'s own name when empty.
    // False (with the reason shown in place of the text) when the file cannot be read.
    bool openFile(const QString &path, const QString &title = {}, const QString &fileNameHint = {});
    void clear();

    QString filePath() const;
    qint64 fileSize() const;
    qint64 loadedBytes() const;          // file bytes shown so far
    qint64 bytesReadFromDisk() const;    // file bytes read so far (what lazy loading saves)
    bool isFullyLoaded() const;
    bool isLoadingAll() const;
    bool isBinary() const;
    QString errorString() const;

    QString guessedDefinition() const;   // from the content (and file name)
    QString definitionOverride() const;  // empty: automatic
    QString definitionName() const;      // what the highlighter uses
    // The user's choice for the open file, remembered for it when it is opened again.
    void setDefinitionOverride(const QString &name);

    void setChunkSizes(qint64 firstBytes, qint64 nextBytes);
    qint64 firstChunkSize() const;
    qint64 chunkSize() const;
    bool brokeLongLines() const;       // some line was longer than kMaxLineLength and shown broken
    void setHighlightLimit(qint64 characters);

    QPlainTextEdit *editor() const;
    FindBar *findBar() const;
    KSyntaxHighlighting::SyntaxHighlighter *highlighter() const;
    DefinitionMenu *definitionMenu() const; // built on first use
    QString statusText() const;          // "Showing the first X of Y"

public Q_SLOTS:
    void loadMore();
    void loadAll();      // a chunk per event-loop turn, so the window stays responsive; stopLoading() ends it
    void stopLoading();
    void showFindBar();
    void showBinaryAsText();

Q_SIGNALS:
    void loadedBytesChanged(qint64 loaded, qint64 total);

private:
    bool appendChunk();
    QString breakLongLines(const QString &text);
    void updateStatus();
    void showNotice(const QString &text, bool offerText = false);
    void updateDefinitionButton();
    void loadAllStep();
    void onScrolled(int value);

    std::unique_ptr<OffloadChunkReader> m_reader;
    QString m_path;
    QString m_guessed;
    QString m_override;
    QString m_error;
    qint64 m_firstChunkBytes = kDefaultFirstChunkBytes;
    qint64 m_chunkBytes = kDefaultChunkBytes;
    qsizetype m_tailLineLength = 0;  // characters after the last line break shown
    bool m_brokeLines = false;
    qint64 m_highlightLimit = kDefaultHighlightLimit;
    bool m_binary = false;
    bool m_loadingAll = false;
    bool m_appending = false;

    QLabel *m_title;
    QToolButton *m_definitionButton;
    DefinitionMenu *m_definitionMenu;
    QHash<QString, QString> m_overrideByPath; // the user's highlighting choice per file
    QToolButton *m_wrapButton;
    QStackedWidget *m_stack;
    QPlainTextEdit *m_editor;
    QWidget *m_noticePage;
    QLabel *m_notice;
    QPushButton *m_showAsText;
    FindBar *m_findBar;
    QWidget *m_statusBar;
    QLabel *m_status;
    QPushButton *m_loadMore;
    QPushButton *m_loadAll;
    QPushButton *m_stop;
    QTimer *m_loadAllTimer;
    KSyntaxHighlighting::SyntaxHighlighter *m_highlighter = nullptr;
};

} // namespace wl
