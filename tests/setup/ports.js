// The ports of one e2e shop (tests/setup/start-server.js) and of what runs beside it, all from the shop's own port,
// so the journeys find a shop's mail catcher and data from the address they test (a project's baseURL).
//   shop       E2E_PORT (3100 for the storefront journeys, 3600 and 3700 for the back office's, 4000 for KSeF's)
//   + 90       the OpenID Connect provider ("Continue with Google")
//   + 250      the KSeF stand-in
//   + 260      the SMTP server the shop delivers to: the journeys' mail catcher
//   + 270/280/290  the NBP, ShipX and InPost Points stand-ins
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function e2ePorts(shop) {
  return { shop, oidc: shop + 90, ksef: shop + 250, smtp: shop + 260, nbp: shop + 270, shipx: shop + 280, inpost: shop + 290 };
}

/** The port of a shop's address ("http://127.0.0.1:3100" → 3100). */
export const portOf = (baseURL) => Number(new URL(baseURL).port);

/** A shop's DATA_DIR (its SQLite database, mail and uploads). */
export const e2eDataDirOf = (shop) => path.join(root, `test-results/e2e-data-${shop}`);
