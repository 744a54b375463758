import { render } from 'preact';
import { parseGameLocation } from './protocol';
import { pageKind } from './routes';
import { Lobby } from './pages/Lobby';
import { GamePage } from './pages/Game';
import { Editor } from './pages/Editor';
import { YamlEditor } from './pages/YamlEditor';
import './app.css';

/** Routes: `/` lobby, `/game/{id}?token=T` a game, `/editor` the modifier editor, `/yaml` the game editor, anything else a not-found page. */
function App() {
  const path = location.pathname;
  const game = parseGameLocation(path, location.search, location.hash);
  let page;
  if (game) {
    const h = new URLSearchParams(location.hash.replace(/^#/, ''));
    const white = h.get('white');
    const black = h.get('black');
    // The sandbox's editor (`from=yaml`: the game editor; else the modifier editor), for its Back link.
    const backTo = h.get('from') === 'yaml' ? '/yaml' : '/editor';
    page = <GamePage id={game.id} token={game.token} hotSeat={white && black ? { white, black } : undefined} backTo={backTo} />;
  } else {
    const kind = pageKind(path);
    if (kind === 'editor') page = <Editor />;
    else if (kind === 'yaml') page = <YamlEditor />;
    else if (kind === 'lobby') page = <Lobby />;
    else
      page = (
        <main class="not-found" data-not-found>
          <h1>No such page</h1>
          <p>
            Nothing lives at <code>{path}</code>. Go to the <a href="/">lobby</a> to create or watch a game.
          </p>
        </main>
      );
  }
  return (
    <>
      <header class="top">
        <a href="/" class="brand">houserules</a>
        <nav aria-label="Main">
          <a href="/">Lobby</a>
          <a href="/editor">Modifier editor</a>
          <a href="/yaml">Game editor</a>
        </nav>
      </header>
      {page}
    </>
  );
}

render(<App />, document.getElementById('app')!);
