#pragma once

#include "llm/ProviderProfile.h"

#include <QAbstractListModel>
#include <QList>

namespace wl {

// The provider profiles being edited in the settings dialog: a working copy,
// written back to AppSettings when the dialog is accepted. One row per
// profile; one of them is the default.
class ProviderProfilesModel : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Role {
        ProfileRole = Qt::UserRole + 1,   // QVariant holding a wl::ProviderProfile
        NameRole,
        ProtocolRole,                     // "openai-chat" | "anthropic"
        BaseUrlRole,
        ModelRole,
        IsDefaultRole,
        ProblemRole,                      // why the profile could not be saved; empty when fine
    };

    explicit ProviderProfilesModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    void setProfiles(const QList<ProviderProfile> &profiles, const QString &defaultName);
    QList<ProviderProfile> profiles() const { return m_profiles; }
    ProviderProfile profile(int row) const;
    void setProfile(int row, const ProviderProfile &profile);

    // Appends (with a unique name) and returns the new row.
    int addProfile(ProviderProfile profile);
    // Appends a copy of `row` named "<name> (copy)"; returns the new row, -1 for a bad row.
    int duplicateProfile(int row);
    // The default moves to the first row when its row goes.
    bool removeProfile(int row);

    int defaultRow() const { return m_defaultRow; }
    void setDefaultRow(int row);
    QString defaultName() const;
    int rowOf(const QString &name) const;

    // `base`, or "base 2", "base 3"... whichever no other row than `exceptRow` uses.
    QString uniqueName(const QString &base, int exceptRow = -1) const;
    // Why `row` cannot be saved (empty name, repeated name, bad URL, no model,
    // a key where a key reference belongs); empty when it can.
    QString problem(int row) const;
    // The first problem of any row, prefixed with the profile's name; empty when all are fine.
    QString firstProblem(int *row = nullptr) const;

private:
    QList<ProviderProfile> m_profiles;
    int m_defaultRow = -1;
};

} // namespace wl
