/** Custom modifiers saved from the editor, kept in the browser too so the lobby can offer them at once. */
export interface CustomModifier {
  id: string;
  name: string;
  descriptor: object;
}
const KEY = 'houserules.customModifiers';

export function loadCustomModifiers(): CustomModifier[] {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((m) => m && typeof m.id === 'string' && typeof m.descriptor === 'object') : [];
  } catch {
    return [];
  }
}

export function saveCustomModifier(m: CustomModifier) {
  const rest = loadCustomModifiers().filter((x) => x.id !== m.id);
  localStorage.setItem(KEY, JSON.stringify([...rest, m]));
}
