import { render } from 'preact';
import { parseGameLocation } from './protocol';
import { Lobby } from './pages/Lobby';
import { GamePage } from './pages/Game';
import { Editor } from './pages/Editor';
import { YamlEditor } from './pages/YamlEditor';
import './app.css';

/** Routes: `/` lobby, `/game/{id}?token=T` a game, `/editor` the modifier editor, `/yaml` the game editor. */
function App() {
  const path = location.pathname;
  const game = parseGameLocation(path, location.search, location.hash);
  let page;
  if (game) {
    const h = new URLSearchParams(location.hash.replace(/^#/, ''));
    const white = h.get('white');
    const black = h.get('black');
    page = <GamePage id={game.id} token={game.token} hotSeat={white && black ? { white, black } : undefined} />;
  } else if (path.startsWith('/editor')) page = <Editor />;
  else if (path.startsWith('/yaml')) page = <YamlEditor />;
  else page = <Lobby />;
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
