/** The id of the inert copy of React Router's module script in a page whose hydration waits. */
export const HYDRATION_SCRIPT_ID = 'kopi-hydration';

/** How long after the page was parsed the browser's code starts at the latest, should `load` be slow. */
export const HYDRATION_DEADLINE_MS = 3000;

const modulePreload = /<link rel="modulepreload"[^>]*>/g;
const moduleScript = /<script\b([^>]*)\btype="module"[^>]*>([\s\S]*?)<\/script>/;

// Runs where the module script was: starts the saved module once the page has loaded and its first contentful
// paint is on the screen (a paint entry is reported after the frame was presented), or at the deadline. A page
// loaded out of sight (a background tab, a prerender) has no paint to wait for, and a browser without paint
// entries has no way to tell: both start it at `load`.
const starter = `(function(){var me=document.currentScript,nonce=me.nonce,saved=document.getElementById('${HYDRATION_SCRIPT_ID}'),started=false,loaded=false,painted=false;function start(){if(started)return;started=true;var s=document.createElement('script');s.type='module';s.nonce=nonce;s.textContent=saved.textContent;document.body.appendChild(s)}function ready(){if(loaded&&painted)start()}try{if(document.visibilityState==='hidden'||PerformanceObserver.supportedEntryTypes.indexOf('paint')<0)throw 0;new PerformanceObserver(function(list,observer){if(list.getEntriesByName('first-contentful-paint').length){observer.disconnect();painted=true;ready()}}).observe({type:'paint',buffered:true})}catch(e){painted=true}if(document.readyState==='complete')loaded=true;else addEventListener('load',function(){loaded=true;ready()});ready();setTimeout(start,${HYDRATION_DEADLINE_MS})})()`;

/**
 * Lets a server-rendered page paint before its browser code arrives. React Router's module preloads go,
 * and its module script is kept as inert text that a small inline script starts once the `load` event has
 * fired and the first contentful paint is on the screen (or at the deadline, should a picture hang). Text,
 * pictures and fonts get the connection and the processor first, and nothing of the code competes with the
 * first paint; until the code runs, every link and form works as it does without JavaScript.
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
