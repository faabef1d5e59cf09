// A real OpenID Connect provider (oidc-provider) standing in for Google in the browser journeys.
// Its development login form (devInteractions) accepts any login name and any password: the login is the
// account id, and the claims are made from it (see `claimsFor`). The shop asks for `prompt=select_account`,
// which devInteractions cannot render; this server answers that step itself, as an account chooser with one
// account would.
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import Provider, { interactionPolicy } from 'oidc-provider';

export const OIDC_CLIENT_ID = 'kopi-e2e';
export const OIDC_CLIENT_SECRET = 'kopi-e2e-client-secret-0123456789abcdef';

/**
 * The claims of the account signed in as `login`: the login is the email when it has an '@', else
 * `${login}@example.test`; the name is the email's local part up to any '+', split on '.', '_' and '-'
 * and capitalised ("ola.nowak+t1@example.test" → "Ola Nowak"). tests/fixtures/accounts.ts mirrors this.
 */
export function claimsFor(login) {
  const email = login.includes('@') ? login : `${login}@example.test`;
  const name = email
    .split('@')[0]
    .split('+')[0]
    .split(/[._-]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(' ');
  return { sub: login, email, email_verified: true, name };
}

/** Starts the provider on 127.0.0.1:`port`; resolves once it listens. */
export async function startOidcProvider({ port, redirectUri }) {
  const issuer = `http://127.0.0.1:${port}`;
  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 0);
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: OIDC_CLIENT_SECRET,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...key, kid: 'e2e', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: ['kopi-e2e-oidc-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Email and name in the ID token, as Google does.
    conformIdTokenClaims: false,
    pkce: { required: () => true, methods: ['S256'] },
    features: { devInteractions: { enabled: true } },
    interactions: { policy },
    async findAccount(_ctx, id) {
      return { accountId: id, claims: async () => claimsFor(id) };
    },
  });
  provider.on('server_error', (_ctx, error) => console.error('[e2e oidc] server error:', error));

  const callback = provider.callback();
  const server = http.createServer(async (req, res) => {
    // The account chooser: answered at once, keeping what earlier steps (login) decided.
    if (req.method === 'GET' && /^\/interaction\/[^/?]+(?:\?|$)/.test(req.url ?? '')) {
      try {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === 'select_account') {
          await provider.interactionFinished(req, res, { select_account: {} }, { mergeWithLastSubmission: true });
          return;
        }
      } catch {
        // An unknown or expired interaction: let the provider answer it.
      }
    }
    callback(req, res);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { issuer, server };
}
