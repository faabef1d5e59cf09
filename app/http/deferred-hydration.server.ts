/** The id of the inert copy of React Router's module script in a page whose hydration waits. */
export const HYDRATION_SCRIPT_ID = 'kopi-hydration';

/** How long after the page was parsed the browser's code starts at the latest, should `load` be slow. */
export const HYDRATION_DEADLINE_MS = 3000;

const modulePreload = /<link rel="modulepreload"[^>]*>/g;
const moduleScript = /<script\b([^>]*)\btype="module"[^>]*>([\s\S]*?)<\/script>/;

// Runs where the module script was: starts the saved module once the page has loaded, or at the deadline.
const starter = `(function(){var me=document.currentScript,nonce=me.nonce,saved=document.getElementById('${HYDRATION_SCRIPT_ID}'),started=false;function start(){if(started)return;started=true;var s=document.createElement('script');s.type='module';s.nonce=nonce;s.textContent=saved.textContent;document.body.appendChild(s)}if(document.readyState==='complete')start();else{addEventListener('load',start);setTimeout(start,${HYDRATION_DEADLINE_MS})}})()`;

/**
 * Lets a server-rendered page paint before its browser code arrives. React Router's module preloads go,
 * and its module script is kept as inert text that a small inline script starts after the `load` event
 * (or at the deadline, should a picture hang). Text, pictures and fonts get the connection and the
 * processor first; until the code runs, every link and form works as it does without JavaScript.
 * A page without React Router's module script is returned as it is.
 */
export function deferHydration(html: string): string {
  const match = moduleScript.exec(html);
  if (!match) return html;
  const [script, attributes, body] = match;
  const nonce = /\bnonce="([^"]*)"/.exec(attributes ?? '')?.[1];
  const nonceAttribute = nonce === undefined ? '' : ` nonce="${nonce}"`;
  const deferred = `<script type="text/plain" id="${HYDRATION_SCRIPT_ID}">${body}</script><script${nonceAttribute}>${starter}</script>`;
  const at = match.index;
  return (html.slice(0, at) + deferred + html.slice(at + script.length)).replace(modulePreload, '');
}
