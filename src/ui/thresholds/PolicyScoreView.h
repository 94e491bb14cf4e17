#pragma once

#include <QGroupBox>

#include <array>
#include <memory>

class QLabel;
class QListWidget;

namespace wl {

class SessionScoring;
struct RunScore;

// What a policy keeps and costs, recorded against what-if: coverage of the facts the requests
// used, the facts lost, the tokens a provider bills (uncached, cache writes, cache reads) and the
// money; below, the facts the what-if loses, each opening the request that needed it.
class PolicyScoreView : public QGroupBox
{
    Q_OBJECT
public:
    enum Row { CoverageRow, NeededRow, LostRow, InputRow, CacheWriteRow, CacheReadRow, CostRow, RowCount };

    explicit PolicyScoreView(QWidget *parent = nullptr);

    // The session's scoring (the recorded column); null: not scored (yet).
    void setScoring(std::shared_ptr<const SessionScoring> scoring);
    void setWhatIf(const RunScore &score);
    // Scoring the session is under way: says so in place of the figures.
    void setPending();

    // The lost facts' items carry the request (position in the session) under this role.
    static constexpr int RequestRole = Qt::UserRole + 1;

    QString cell(Row row, bool whatIf) const;
    QListWidget *lostList() const { return m_lost; }

Q_SIGNALS:
    // The user opened a lost fact: the request (position in the session) that needed it.
    void requestChosen(int request);

private:
    void show(int column, const RunScore &score);

    std::shared_ptr<const SessionScoring> m_scoring;
    std::array<std::array<QLabel *, 2>, RowCount> m_cells{};
    QLabel *m_state;
    QListWidget *m_lost;
};

} // namespace wl
