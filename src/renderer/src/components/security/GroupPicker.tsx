/**
 * The chat bar's permission group (docs/ui.md): shows which group judges this session's calls and switches it.
 * The core refuses an unknown group; the list is re-read when it opens so a group made a moment ago is there.
 */
import { useEffect, useState } from 'react';
import type { CallResponse } from '../../../../shared/contract/index';
import { skald } from '../../bridge/skald';

type Group = CallResponse<'approval:listGroups'>['groups'][number];

export function GroupPicker({ sessionId }: { sessionId: number }) {
  const [groups, setGroups] = useState<Group[]>([]);
  const [current, setCurrent] = useState<string>('default');
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    Promise.all([skald.approval.listGroups({}), skald.approval.sessionGroup({ sessionId })]).then(
      ([g, s]) => (setGroups(g.groups), setCurrent(s.groupId), setError(null)),
      (e: Error) => setError(e.message),
    );
  useEffect(() => void load(), [sessionId]);
  return (
    <label className="group-picker">
      <span className="muted small">Permissions</span>
      <select
        data-testid="group-picker"
        value={current}
        onFocus={() => void load()}
        onChange={(e) => {
          const groupId = e.target.value;
          skald.approval.setSessionGroup({ sessionId, groupId }).then(
            (r) => (setCurrent(r.groupId), setError(null)),
            (err: Error) => setError(err.message),
          );
        }}
      >
        {groups.map((g) => (
          <option key={g.id} value={g.id}>
            {g.name}
          </option>
        ))}
        {!groups.some((g) => g.id === current) && <option value={current}>{current} (missing: every call asks)</option>}
      </select>
      {error && <span className="error small">{error}</span>}
    </label>
  );
}
