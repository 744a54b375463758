/**
 * Naming one's seat after creation (issue 26, trial 20 item 8): an invited friend, or a player who
 * joined an open challenge, played as "Anonymous" (`?` in the PGN). The game page asks a seat with no
 * name for one (the name this browser remembers filled in) and sends it with
 * `POST /api/games/{id}/name`; the server keeps it once, and every page sees it in the next message.
 */
import { useState } from 'preact/hooks';
import { api } from '../protocol';
import { loadName, nameProblem, saveName } from './names';

/** The form under one's own unnamed seat. */
export function NameSeat({ id, token }: { id: string; token: string }) {
  const [name, setName] = useState(loadName);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const problem = nameProblem(name);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    try {
      await api.nameSeat(id, token, name.trim());
      saveName(name.trim());
      setError('');
    } catch (err) {
      setError((err as Error).message);
    }
    setBusy(false);
  };
  return (
    <form class="name-seat" data-name-seat onSubmit={submit}>
      <label for="seat-name">Your name (shown to your opponent and in the PGN; set once)</label>
      <div class="row">
        <input id="seat-name" name="seatName" value={name} maxLength={100} autocomplete="nickname" aria-invalid={error ? 'true' : undefined} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <button type="submit" disabled={busy}>Save name</button>
      </div>
      {error && <p class="error" role="alert" data-name-error>{error}</p>}
    </form>
  );
}
