import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { REDACTION_KINDS, type RedactionKind, redact } from './redact.js';

// Sample secrets are assembled from pieces so that no complete token shape sits in the source file
// (secret scanners would flag it). They are fake, but shaped like the real thing.
const j = (...parts: string[]): string => parts.join('');
const AWS_ID = j('AKIA', 'IOSFODNN7EXAMPLE');
const AWS_STS_ID = j('ASIA', 'Y34FZKBOKMUTVV7A');
const AWS_SECRET = j('wJalrXUtnFEMI/K7MDENG', '/bPxRfiCYEXAMPLEKEY');
const GCP_KEY = j('AIza', 'SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY');
const GH_PAT = j('ghp_', 'x7Hq2LmN9pR4sT6vW8yZ1aB3cD5eF7gH9jK2');
const GH_OAUTH = j('gho_', '16C7e42F292c6912E7710c838347Ae178B4a');
const GH_FINE = j(
  'github_pat_',
  '11ABCDEFG0123456789abc_',
  'aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXy',
);
const GL_PAT = j('glpat-', 'Xk9mQ2pL7vR4tY8wZ3nB');
const SLACK_BOT = j('xoxb-', '123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx');
const SLACK_HOOK_PATH = j('T024BE7LD/B01J9KZ0A3X/', 'kXzZ4d0eTn9HqP2vL8sYw3Rb');
const STRIPE_LIVE = j('sk_', 'live_', '51HqLyjWDarjtT1zdp7dcXYZabcdEFGH');
const STRIPE_RESTRICTED = j('rk_', 'live_', '51HqLyjWDarjtT1zdp7dcQRSTuv');
const STRIPE_TEST = j('sk_', 'test_', '4eC39HqLyjWDarjtT1zdp7dc');
const STRIPE_PUBLISHABLE = j('pk_', 'live_', '51HqLyjWDarjtT1zdp7dcXYZabc');
const OPENAI_PROJECT = j('sk-', 'proj-', 'Vh3kF9xLm2Qp7Rt4Wz8Yb1Nc6Ds0Ge5Hj_Ku3Lo9Mp-Tq2Rv7Sx4Uy1Wz8Ab');
const OPENAI_LEGACY = j('sk-', 'Fq8Zt3Lm9Xw2Pk7Rv4Ny1Bc6Hd0Js5GaT3BlbkFJq8Zt3Lm9Xw2Pk7');
const ANTHROPIC = j(
  'sk-',
  'ant-api03-',
  'Xk9mQ2pL7vR4tY8wZ3nBc6Hd0Js5Ga1Fe2Dq-Tu4Vw7Xy9Za_Bc3De5Fg7Hi9Jk1Lm3No5Pq7Rs9Tu1VwAA',
);
const GOOGLE_ACCESS = j('ya29.', 'a0AfH6SMBx7Hq2LmN9pR4sT6vW8yZ1aB3cD5eF7gH9jK2');
const GOOGLE_CLIENT_SECRET = j('GOCSPX-', 'Xk9mQ2pL7vR4tY8wZ3nBc6Hd0Js5');
const NPM = j('npm_', 'x7Hq2LmN9pR4sT6vW8yZ1aB3cD5eF7gH9jK2');
const HF = j('hf_', 'xHqLmNpRsTvWyZaBcDeFgHjKmNpQrStUvW');
const JWT = j(
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
  '.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ',
  '.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
);
const AZURE_KEY = j(
  'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3Bx',
  'cnN0dXZ3eHl6QUJDREVGR0hJSktMTU5PUFFSU1RVVg==',
);
const PEM_BODY = [
  'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  'VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK',
  'LxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW/VDL5AaWTg0nLVkjRo',
];
const BEGIN = (label: string): string => `-----BEGIN ${label}PRIVATE KEY-----`;
const END = (label: string): string => `-----END ${label}PRIVATE KEY-----`;

/** Every kind that any test saw, to check them against REDACTION_KINDS at the end. */
const seen = new Set<RedactionKind>();

function expectRedacted(input: string, expected: string, kinds?: RedactionKind[]): void {
  const result = redact(input);
  for (const kind of result.kinds) seen.add(kind);
  assert.equal(result.text, expected);
  if (kinds !== undefined) assert.deepEqual(result.kinds, kinds);
  assert.equal(result.redactions, (expected.match(/\[REDACTED:[a-z0-9-]+\]/g) ?? []).length);
}

function expectKept(input: string): void {
  const result = redact(input);
  assert.equal(result.text, input, `should be kept: ${input}`);
  assert.equal(result.redactions, 0);
  assert.deepEqual(result.kinds, []);
}

describe('redact: tokens known by their prefix', () => {
  test('AWS access key ids (long-lived and STS)', () => {
    expectRedacted(`aws_access_key_id = ${AWS_ID}`, 'aws_access_key_id = [REDACTED:aws-access-key]', [
      'aws-access-key',
    ]);
    expectRedacted(`"AccessKeyId": "${AWS_STS_ID}",`, '"AccessKeyId": "[REDACTED:aws-access-key]",');
  });

  test('GCP API keys, also inside a URL query', () => {
    expectRedacted(`GOOGLE_API_KEY=${GCP_KEY}`, 'GOOGLE_API_KEY=[REDACTED:gcp-api-key]', ['gcp-api-key']);
    expectRedacted(
      `GET https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key=${GCP_KEY} 200`,
      'GET https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key=[REDACTED:gcp-api-key] 200',
    );
  });

  test('GitHub classic, OAuth and fine-grained tokens', () => {
    expectRedacted(`export GH_TOKEN=${GH_PAT}`, 'export GH_TOKEN=[REDACTED:github-token]', ['github-token']);
    expectRedacted(`token ${GH_OAUTH} expired`, 'token [REDACTED:github-token] expired');
    expectRedacted(`Using ${GH_FINE} for the API`, 'Using [REDACTED:github-token] for the API');
  });

  test('GitLab personal access tokens', () => {
    expectRedacted(
      `git clone https://oauth2:${GL_PAT}@gitlab.com/acme/app.git`,
      'git clone https://oauth2:[REDACTED:gitlab-token]@gitlab.com/acme/app.git',
      ['gitlab-token'],
    );
  });

  test('Slack tokens and webhook URLs (the path is the credential)', () => {
    expectRedacted(`SLACK_BOT_TOKEN=${SLACK_BOT}`, 'SLACK_BOT_TOKEN=[REDACTED:slack-token]', ['slack-token']);
    expectRedacted(
      `curl -X POST https://hooks.slack.com/services/${SLACK_HOOK_PATH} -d @msg.json`,
      'curl -X POST https://hooks.slack.com/services/[REDACTED:slack-webhook] -d @msg.json',
      ['slack-webhook'],
    );
  });

  test('Stripe secret, restricted, test and webhook keys; publishable keys stay', () => {
    expectRedacted(`STRIPE_SECRET_KEY=${STRIPE_LIVE}`, 'STRIPE_SECRET_KEY=[REDACTED:stripe-key]', [
      'stripe-key',
    ]);
    expectRedacted(`stripe.key = "${STRIPE_RESTRICTED}"`, 'stripe.key = "[REDACTED:stripe-key]"');
    expectRedacted(`new Stripe('${STRIPE_TEST}')`, "new Stripe('[REDACTED:stripe-key]')");
    expectRedacted(
      `whsec_${'5f3c9a1b7e2d4f6a8c0b1d3e5f7a9c1e'} signs webhooks`,
      '[REDACTED:stripe-key] signs webhooks',
    );
    // Decision: publishable keys ship in every checkout page; keeping them keeps them searchable.
    expectKept(`STRIPE_PUBLISHABLE_KEY_VALUE: ${STRIPE_PUBLISHABLE}`);
    expectKept(`const stripe = Stripe('${STRIPE_PUBLISHABLE}');`);
  });

  test('OpenAI project and legacy keys', () => {
    expectRedacted(`OPENAI_API_KEY=${OPENAI_PROJECT}`, 'OPENAI_API_KEY=[REDACTED:openai-key]', [
      'openai-key',
    ]);
    expectRedacted(
      `client = OpenAI(api_key="${OPENAI_LEGACY}")`,
      'client = OpenAI(api_key="[REDACTED:openai-key]")',
    );
  });

  test('Anthropic keys', () => {
    expectRedacted(
      `curl -H "x-api-key: ${ANTHROPIC}" https://api.anthropic.com/v1/messages`,
      'curl -H "x-api-key: [REDACTED:anthropic-key]" https://api.anthropic.com/v1/messages',
      ['anthropic-key'],
    );
  });

  test('Google OAuth access tokens and client secrets', () => {
    expectRedacted(`access token: ${GOOGLE_ACCESS}`, 'access token: [REDACTED:google-oauth]', [
      'google-oauth',
    ]);
    expectRedacted(
      `{"client_secret": "${GOOGLE_CLIENT_SECRET}"}`,
      '{"client_secret": "[REDACTED:google-oauth]"}',
    );
  });

  test('npm and Hugging Face tokens', () => {
    expectRedacted(
      `//registry.npmjs.org/:_authToken=${NPM}`,
      '//registry.npmjs.org/:_authToken=[REDACTED:npm-token]',
      ['npm-token'],
    );
    expectRedacted(
      `huggingface-cli login --token ${HF}`,
      'huggingface-cli login --token [REDACTED:huggingface-token]',
    );
  });

  test('JWTs anywhere', () => {
    expectRedacted(`id_token=${JWT}&state=xyz`, 'id_token=[REDACTED:jwt]&state=xyz', ['jwt']);
    expectRedacted(`decoded ${JWT}.`, 'decoded [REDACTED:jwt].');
  });
});

describe('redact: private keys', () => {
  test('a whole PEM block, header to footer', () => {
    const block = [BEGIN('RSA '), ...PEM_BODY, END('RSA ')].join('\n');
    expectRedacted(`cat id_rsa\n${block}\n$ ls`, 'cat id_rsa\n[REDACTED:private-key]\n$ ls', ['private-key']);
    const openssh = [BEGIN('OPENSSH '), ...PEM_BODY, END('OPENSSH ')].join('\n');
    expectRedacted(`key:\n  ${openssh.replaceAll('\n', '\n  ')}\nok`, 'key:\n  [REDACTED:private-key]\nok');
  });

  test('a truncated block with no END line still goes, through its base64 body', () => {
    const cut = [BEGIN('EC '), ...PEM_BODY.slice(0, 2), 'LxoS2tFczGkPLPgi'].join('\n');
    expectRedacted(`${cut}\n[output truncated]`, '[REDACTED:private-key]\n[output truncated]');
    expectRedacted(`${BEGIN('')}\n${PEM_BODY[0]}`, '[REDACTED:private-key]');
  });

  test('an encrypted PEM with RFC 1421 headers', () => {
    const block = [
      BEGIN('RSA '),
      'Proc-Type: 4,ENCRYPTED',
      'DEK-Info: AES-128-CBC,3F17F5316E2BAC89',
      '',
      ...PEM_BODY,
      END('RSA '),
    ];
    expectRedacted(block.join('\n'), '[REDACTED:private-key]');
  });

  test('a JSON-escaped key in a service-account file', () => {
    const escaped = `${BEGIN('')}\\n${PEM_BODY.join('\\n')}\\n${END('')}\\n`;
    expectRedacted(
      `{"type": "service_account", "private_key": "${escaped}", "client_email": "x@y.iam.gserviceaccount.com"}`,
      '{"type": "service_account", "private_key": "[REDACTED:private-key]\\n", "client_email": "x@y.iam.gserviceaccount.com"}',
    );
  });

  test('a header alone, in code that looks for one, is not a key', () => {
    expectKept(`if (pem.indexOf("${BEGIN('')}") !== 0) throw new Error('not PKCS#8');`);
    expectKept(`const header = '${BEGIN('RSA ')}';\nconst footer = '${END('RSA ')}';`);
  });
});

describe('redact: secrets known by their context', () => {
  test('URL passwords: scheme, user and host stay', () => {
    expectRedacted(
      'DATABASE_URL=postgres://app:s3cr3t-P4ss@db.internal:5432/app',
      'DATABASE_URL=postgres://app:[REDACTED:url-password]@db.internal:5432/app',
      ['url-password'],
    );
    expectRedacted('redis://:pw12345@localhost:6379/0', 'redis://:[REDACTED:url-password]@localhost:6379/0');
    expectRedacted(
      `git push https://bot:${GH_PAT}@github.com/acme/app.git`,
      'git push https://bot:[REDACTED:github-token]@github.com/acme/app.git',
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell placeholder, not a template
    expectKept('postgres://app:${DB_PASSWORD}@db:5432/app and mongodb://user:****@host:27017');
    expectKept('http://example.com:8080/path@v2 and git@github.com:acme/app.git');
  });

  test('Bearer and Basic credentials: the scheme stays', () => {
    expectRedacted(
      'Authorization: Bearer 4f9c2d1e8b7a6f5e4d3c2b1a0f9e8d7c',
      'Authorization: Bearer [REDACTED:bearer]',
      ['bearer'],
    );
    expectRedacted(
      'curl -H "Authorization: Basic dXNlcjpwYXNzd29yZA==" https://api.example.com',
      'curl -H "Authorization: Basic [REDACTED:basic-auth]" https://api.example.com',
      ['basic-auth'],
    );
    expectRedacted(`-H 'Authorization: Bearer ${JWT}'`, "-H 'Authorization: Bearer [REDACTED:jwt]'", ['jwt']);
    expectKept('The API expects a Bearer token; Basic authentication is disabled. Bearer $TOKEN works.');
    expectKept('add basic WebAssembly test');
  });

  test('password and secret assignments in code, config and JSON', () => {
    expectRedacted('password = "hunter2"', 'password = "[REDACTED:password]"', ['password']);
    expectRedacted('{"api_key": "a1b2c3d4e5f6g7h8"}', '{"api_key": "[REDACTED:secret]"}', ['secret']);
    expectRedacted('db:\n  DB_PASSWORD: s3cr3tpass\n', 'db:\n  DB_PASSWORD: [REDACTED:password]\n');
    expectRedacted(
      "$config['db_password'] = 'Tr0ub4dor&3';",
      "$config['db_password'] = '[REDACTED:password]';",
    );
    expectRedacted("'password' => 'p4ssw0rd!',", "'password' => '[REDACTED:password]',");
    expectRedacted('client_secret: 8Q~xYz1.AbC-dEf_GhI2jKl', 'client_secret: [REDACTED:secret]');
    expectRedacted('api_key: str = "abc123def456ghi"', 'api_key: str = "[REDACTED:secret]"');
    expectRedacted('x-api-key: 1f3870be274f6c49b3e31a0c6728957f', 'x-api-key: [REDACTED:secret]');
    expectRedacted("SECRET_KEY = b'k3y-abc123-xyz'", "SECRET_KEY = b'[REDACTED:secret]'");
    expectRedacted('headers["X-Api-Key"] = "abc123def456ghi"', 'headers["X-Api-Key"] = "[REDACTED:secret]"');
    expectRedacted(
      "CREATE USER app WITH PASSWORD 'pa55word';",
      "CREATE USER app WITH PASSWORD '[REDACTED:password]';",
    );
    expectRedacted('{\\"password\\": \\"hunter2!\\"}', '{\\"password\\": \\"[REDACTED:password]\\"}');
  });

  test('command-line flags', () => {
    expectRedacted(
      'mysql --user root --password hunter22 app',
      'mysql --user root --password [REDACTED:password] app',
    );
    expectRedacted('pg_dump --password=hunter2 app', 'pg_dump --password=[REDACTED:password] app');
    expectRedacted('deploy --api-key=k3y-9f8e7d --force', 'deploy --api-key=[REDACTED:secret] --force');
    expectKept('use the --password flag, or --password-stdin < file, or --token "$TOKEN"');
  });

  test('query and connection strings are literal contexts', () => {
    expectRedacted(
      'GET /cb?code=4/0Ad&access_token=abc&x=1',
      'GET /cb?code=4/0Ad&access_token=[REDACTED:secret]&x=1',
    );
    expectRedacted(
      'Server=db;Database=app;User Id=sa;Password=Pa55w0rd;',
      'Server=db;Database=app;User Id=sa;Password=[REDACTED:password];',
    );
  });

  test('dotenv and shell assignments keep the name and hide any value', () => {
    const env = [
      '# .env',
      `STRIPE_SECRET_KEY=${STRIPE_LIVE}`,
      'JWT_SECRET=supersecret',
      'DATABASE_PASSWORD="correct horse battery staple"',
      'SESSION_KEY=abc',
      'export SECRET_TOKEN=tok-123',
      `AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`,
      'DEBUG=true',
      'PORT=3000',
      'AUTH_PROVIDER=github',
      'TOKENIZERS_PARALLELISM=false',
      'DB_PASSWORD_FILE=/run/secrets/db',
      'PWD=/home/me/project',
    ].join('\n');
    expectRedacted(
      env,
      [
        '# .env',
        'STRIPE_SECRET_KEY=[REDACTED:stripe-key]',
        'JWT_SECRET=[REDACTED:dotenv]',
        'DATABASE_PASSWORD="[REDACTED:dotenv]"',
        'SESSION_KEY=[REDACTED:dotenv]',
        'export SECRET_TOKEN=[REDACTED:dotenv]',
        'AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret]',
        'DEBUG=true',
        'PORT=3000',
        'AUTH_PROVIDER=github',
        'TOKENIZERS_PARALLELISM=false',
        'DB_PASSWORD_FILE=/run/secrets/db',
        'PWD=/home/me/project',
      ].join('\n'),
      ['stripe-key', 'dotenv', 'aws-secret'],
    );
    expectRedacted('docker run -e API_TOKEN=abc123 app', 'docker run -e API_TOKEN=[REDACTED:dotenv] app');
    expectRedacted('$ GITHUB_TOKEN=t0k3n gh pr list', '$ GITHUB_TOKEN=[REDACTED:dotenv] gh pr list');
  });

  test('AWS secret access keys in assignment context', () => {
    expectRedacted(`aws_secret_access_key = ${AWS_SECRET}`, 'aws_secret_access_key = [REDACTED:aws-secret]', [
      'aws-secret',
    ]);
    expectRedacted(`{ secretAccessKey: "${AWS_SECRET}" }`, '{ secretAccessKey: "[REDACTED:aws-secret]" }');
  });

  test('Azure connection strings: only the account key goes', () => {
    expectRedacted(
      `AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${AZURE_KEY};EndpointSuffix=core.windows.net"`,
      'AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=[REDACTED:azure-key];EndpointSuffix=core.windows.net"',
      ['azure-key'],
    );
  });
});

describe('redact: leaves code, prose and identifiers alone', () => {
  test('the cases named in the contract', () => {
    for (const text of [
      'const token = getToken();',
      'password: string;',
      'if (secret == null) return;',
      'const key = process.env.API_KEY;',
      'apiKey: config.apiKey,',
      'password = input("Password: ")',
      'token_count = 12345678',
      'the task-sk-ant-api03-router-configuration-module-0123456789 lives on a desk-lamp',
    ]) {
      expectKept(text);
    }
  });

  test('more code shapes', () => {
    for (const text of [
      'private readonly token: string | undefined;',
      'secret: Uint8Array; privateKey: CryptoKey',
      'const t = opts?.token ?? session!.token;',
      'Object.keys(obj).forEach((key) => map[key] = obj[key]);',
      'type Token = { kind: TokenKind; text: string };',
      'onToken?.(token); tokens.push(token);',
      "fetch(url, { credentials: 'include' });",
      'export type RequestCredentials = "include" | "omit" | "same-origin";',
      "tokenType: 'Bearer', token_type: 'bearer'",
      'readonly STENCIL_PASS_DEPTH_PASS: 0x0B96;',
      "Token: '#dcdccc', SERVER_AUTH = '1.3.6.1.5.5.7.3.1'",
      '"password": {"type": "string", "minLength": 12}',
      "credentials = '{0}:{1}'.format(user, passwd); user_pass = '%s:%s' % (user, passwd)",
      'const password = await bcrypt.hash(input, 12);',
      "api_key = os.environ['OPENAI_API_KEY']",
      'export GITHUB_TOKEN=$(gh auth token)',
      'password := os.Getenv("DB_PASSWORD"); let token: String = env::var("TOKEN")?;',
      "x = f'{token}'; password: !vault |",
      'token = jwt.encode(payload, SECRET, algorithm="HS256")',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell placeholder, not a template
      'ENV NODE_AUTH_TOKEN=${NPM_TOKEN}',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a template
      'token: ${{ secrets.GITHUB_TOKEN }}',
    ]) {
      expectKept(text);
    }
  });

  test('LLM token counters and metadata', () => {
    expectKept(
      '{"usage": {"input_tokens": 12345678, "output_tokens": 312, "cache_read_input_tokens": 2048}}',
    );
    expectKept('max_tokens: 4096, max_token: 81920000, total_tokens=123456789');
  });

  test('hashes, ids and images are not secrets of these kinds', () => {
    expectKept('commit 9fceb02d0ae598e95dc970b74767f19372d61af8 (HEAD -> main)');
    expectKept(
      'request_id=550e8400-e29b-41d4-a716-446655440000 session 7d3a9c2e-1f44-4a0e-b5d2-3e8f0a6c2d91',
    );
    const png = `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk${'AKIAq83kdLsYX0eyJ+9'.repeat(20)}==`;
    expectKept(`<img src="${png}">`);
  });

  test('placeholders stay', () => {
    for (const text of [
      'OPENAI_API_KEY=<your-api-key>',
      'api_key: "YOUR_API_KEY"',
      'export ANTHROPIC_API_KEY=your-key-here',
      'OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      'token: "xxxxxxxx"',
      'password: "********"',
      'GITHUB_TOKEN=ghp_...',
      'API_KEY=$API_KEY',
      'set SECRET=%SECRET%',
      'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX',
      `aws_access_key_id = ${'AKIA'}XXXXXXXXXXXXXXXX`,
    ]) {
      expectKept(text);
    }
  });

  test('decisions on the borderline', () => {
    // A literal default password is a password: it is redacted.
    expectRedacted('password = "changeme"', 'password = "[REDACTED:password]"');
    // AWS's documentation key has the real shape: redacted like any other.
    expectRedacted(`id=${AWS_ID}`, 'id=[REDACTED:aws-access-key]');
    // An unquoted digit-free word is indistinguishable from an identifier: kept.
    expectKept('password: letmein');
    // Quoted text with spaces is prose (a label or message), except in a dotenv line.
    expectKept('password: "Enter your password"');
    // A value that names itself is a label, not a secret.
    expectKept('ContentEncoding.IETFToken = "ietf-token"; const password = "password";');
  });

  test('Unicode text passes through untouched', () => {
    const text =
      'Die Änderung ist fertig — 日本語のテキスト, עברית, emoji 🦛🔑, combining é, пароль: секрет.';
    expectKept(text);
    expectRedacted(
      'mot de passe — password: "pässwörd1" ✓',
      'mot de passe — password: "[REDACTED:password]" ✓',
    );
  });
});

// Shapes from gitleaks' and secretlint's public rule sets; fake values, assembled from pieces.
const hex = (n: number, seed = 7): string => {
  let out = '';
  for (let i = 0; i < n; i++) out += '0123456789abcdef'[(i * seed + 3) % 16];
  return out;
};
const alnum = (n: number, seed = 7): string => {
  const a = 'aB3cD5eF7gH9jK2LmN4pQ6rS8tU0vW1xY';
  let out = '';
  for (let i = 0; i < n; i++) out += a[(i * seed + 5) % a.length];
  return out;
};
const SENDGRID = j('SG', '.', alnum(22), '.', alnum(43, 13));
const SHOPIFY = (p: string) => j(p, '_', hex(32));
const DO_TOKEN = j('dop', '_v1_', hex(64));
const TELEGRAM_SECRET = j('AA', alnum(33, 17));
const TELEGRAM = j('123456789', ':', TELEGRAM_SECRET);

describe('redact: more providers and command lines (gitleaks and secretlint shapes)', () => {
  test('SendGrid, Shopify, DigitalOcean', () => {
    expectRedacted(`SENDGRID=${SENDGRID}`, 'SENDGRID=[REDACTED:sendgrid-key]', ['sendgrid-key']);
    expectRedacted(`key is ${SENDGRID}.`, 'key is [REDACTED:sendgrid-key].');
    for (const p of ['shpat', 'shpss', 'shpca', 'shppa'])
      expectRedacted(
        `X-Shopify-Access-Token: ${SHOPIFY(p)}`,
        'X-Shopify-Access-Token: [REDACTED:shopify-token]',
      );
    expectRedacted(`doctl auth init -t ${DO_TOKEN}`, 'doctl auth init -t [REDACTED:digitalocean-token]');
    expectRedacted(`"${j('doo', '_v1_', hex(64, 5))}"`, '"[REDACTED:digitalocean-token]"');
  });

  test('Telegram bot tokens keep the bot id', () => {
    expectRedacted(
      `curl https://api.telegram.org/bot${TELEGRAM}/getMe`,
      'curl https://api.telegram.org/bot123456789:[REDACTED:telegram-bot-token]/getMe',
      ['telegram-bot-token'],
    );
    expectRedacted(`the bot is ${TELEGRAM}`, 'the bot is 123456789:[REDACTED:telegram-bot-token]');
    expectRedacted(`TOKEN = "${TELEGRAM}"`, 'TOKEN = "[REDACTED:secret]"');
  });

  test('other providers', () => {
    const cases: [string, string][] = [
      [j('pypi-', 'AgEIcHlwaS5vcmc', alnum(60)), 'pypi-token'],
      [j('glc_', alnum(40)), 'grafana-token'],
      [j('glsa_', alnum(32), '_', hex(8)), 'grafana-token'],
      [j('sntryu_', hex(64)), 'sentry-token'],
      [j('hvs', '.', alnum(90)), 'vault-token'],
      [j('lin_api_', alnum(40)), 'linear-key'],
      [j('PMAK-', hex(24), '-', hex(34, 3)), 'postman-key'],
      [j('NRAK-', alnum(27).toUpperCase()), 'newrelic-key'],
      [j('pul-', hex(40)), 'pulumi-token'],
      [j('sbp_', hex(40)), 'supabase-token'],
      [j('dp', '.pt.', alnum(43)), 'doppler-token'],
      [j('sq0atp-', alnum(22)), 'square-token'],
      [j('ntn_', '12345678901', alnum(35)), 'notion-token'],
      [j('key-', hex(32)), 'mailgun-key'],
      [j('sk', '.eyJ', alnum(60), '.', alnum(22)), 'mapbox-token'],
      [j('AGE-SECRET-KEY-1', 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L'.repeat(2).slice(0, 58)), 'age-secret-key'],
      [j('HRKU-AA', alnum(58)), 'heroku-key'],
      [j('fo1_', alnum(43)), 'flyio-token'],
      [j('nfp_', alnum(36)), 'netlify-token'],
      [j('tapedeck', '_', alnum(43)), 'tapedeck-key'],
      [j('tdl', '_', alnum(43, 7)), 'tapedeck-key'],
    ];
    for (const [token, kind] of cases)
      expectRedacted(`export VALUE ${token} now`, `export VALUE [REDACTED:${kind}] now`, [
        kind as RedactionKind,
      ]);
    expectRedacted(
      `https://discord.com/api/webhooks/1234567890/${alnum(68)}`,
      'https://discord.com/api/webhooks/[REDACTED:discord-webhook]',
    );
  });

  test('passwords given inline to mysql, sshpass, redis-cli and curl', () => {
    expectRedacted('mysql -u root -pS3cretPass app', 'mysql -u root -p[REDACTED:password] app', ['password']);
    expectRedacted(
      'mysqldump -uadmin -p"hunter 22" shop > shop.sql',
      'mysqldump -uadmin -p"[REDACTED:password]" shop > shop.sql',
    );
    expectRedacted(
      'sudo /usr/bin/mariadb -h db -phunter22',
      'sudo /usr/bin/mariadb -h db -p[REDACTED:password]',
    );
    expectRedacted('sshpass -p hunter22 ssh deploy@web1', 'sshpass -p [REDACTED:password] ssh deploy@web1');
    expectRedacted("sshpass -p'hunter22' scp a b", "sshpass -p'[REDACTED:password]' scp a b");
    expectRedacted('redis-cli -h cache -a Zx9yW8vU7 ping', 'redis-cli -h cache -a [REDACTED:password] ping');
    expectRedacted('curl -u admin:hunter22 https://x', 'curl -u admin:[REDACTED:password] https://x');
    expectRedacted('curl --user=ci:p4ssw0rd https://x', 'curl --user=ci:[REDACTED:password] https://x');
    expectRedacted(
      '{"command":"cd app && mysql -proot123 -e \\"select 1\\""}',
      '{"command":"cd app && mysql -p[REDACTED:password] -e \\"select 1\\""}',
    );
    // A prompt, another command's flags, references and placeholders stay.
    expectKept('mysql -u root -p app');
    expectKept('mysql -p');
    expectKept('grep -p pattern file && ls -a hidden');
    expectKept('mkdir -p src/lib && cp -a dist out');
    expectKept('mysql -p"$DB_PASSWORD" app');
    expectKept('sshpass -p $SSHPASS ssh host');
    expectKept('curl -u "$USER:$TOKEN" https://x');
    expectKept('curl -u admin https://x');
    expectKept('ps -aux | grep node');
  });

  test('30+ harmless look-alikes stay as they are', () => {
    const lookAlikes = [
      'commit 9fceb02d0ae598e95dc970b74767f19372d61af8',
      'sha256:4bc453b53cb3d914b45f4b250294236adba2c0e09ff6f03793949e7e39fd4cc1',
      'integrity sha512-Gm9oZ1v0d8l8CcfLh2yq3bZ7kC2w5bq2T6U1w9Xb6vR1m0xg0Jb0cQK2oQv3bC8m3f7pJ0z1E1w8Xc5s0m4Kdg==',
      'uuid 550e8400-e29b-41d4-a716-446655440000',
      'md5 d41d8cd98f00b204e9800998ecf8427e',
      'request-id: req_8f3b2a1c9d7e6f5a4b3c2d1e',
      'docker pull node@sha256:0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c',
      'chat id -1001234567890 and message 98765',
      'time 12:30:45 and port 127.0.0.1:7420',
      'see issue #123456789 and PR 4567',
      'const SG = require("sendgrid"); SG.send(msg)',
      'shpat is a prefix of Shopify admin tokens',
      "dop_v1_ is DigitalOcean's token prefix",
      'import { secretKey } from "./config"',
      'key-value store, key-press handler, key-frames',
      'sk.eyJ is what Mapbox secret tokens start with',
      'mysql -u root -p',
      'mysql --password app',
      'redis-cli -a',
      'curl -u user https://example.com',
      'sshpass -f ~/.pw ssh host',
      'git log --pretty=format:%H -p',
      'npm i -D @types/node && tar -xzf a.tgz',
      'the model used 12345 input_tokens and 678 output_tokens',
      'lin_api_ keys are 40 characters',
      'AGE-SECRET-KEY-1 starts an age identity',
      'tapedeck_ is the prefix of our keys',
      'font-family: "Inter", sans-serif; color: #dcdccc',
      'v1.2.3-beta.4+build.567',
      'HRKU-AA is the Heroku key prefix',
      'nfp_ netlify personal tokens',
      'hvs. is a Vault service token prefix; hvs.short is not one',
      'glc_ is Grafana Cloud',
      'ls -la && ps -aux && df -h',
      'Telegram ids like 123456789:ABCdef are not tokens without the AA and 33 characters',
    ];
    assert.ok(lookAlikes.length >= 30);
    for (const text of lookAlikes) expectKept(text);
  });
});

describe('redact: counting, idempotence and speed', () => {
  const mixed = [
    'Here is the config I found:',
    `OPENAI_API_KEY=${OPENAI_PROJECT}`,
    `curl -H "Authorization: Bearer ${JWT}" https://api.example.com/v1/me`,
    'DATABASE_URL=postgres://app:s3cr3t-P4ss@db.internal:5432/app',
    [BEGIN(''), ...PEM_BODY, END('')].join('\n'),
    'password = "hunter2" and the git SHA is 9fceb02d0ae598e95dc970b74767f19372d61af8.',
  ].join('\n');

  test('several secrets in one text are each counted; kinds in order of first appearance', () => {
    const result = redact(mixed);
    assert.equal(result.redactions, 5);
    assert.deepEqual(result.kinds, ['openai-key', 'jwt', 'url-password', 'private-key', 'password']);
    assert.match(result.text, /the git SHA is 9fceb02d0ae598e95dc970b74767f19372d61af8\.$/);
  });

  test('redacting twice changes nothing more, and markers are never re-redacted', () => {
    const once = redact(mixed).text;
    const twice = redact(once);
    assert.equal(twice.text, once);
    assert.equal(twice.redactions, 0);
    for (const text of [
      'API_KEY=[REDACTED:openai-key]',
      'password: "[REDACTED:password]"',
      'postgres://u:[REDACTED:url-password]@h/db',
      'Authorization: Bearer [REDACTED:bearer]',
      '[REDACTED:private-key]',
      'SECRET=[REDACTED:dotenv] and --password [REDACTED:password]',
    ]) {
      expectKept(text);
    }
  });

  test('text without candidates comes back as the same string', () => {
    const text = 'Just prose about the index, with no credentials in it.';
    assert.equal(redact(text).text, text);
    assert.deepEqual(redact(''), { text: '', redactions: 0, kinds: [] });
  });

  test('1 MB lines of repeated trigger junk finish (no catastrophic backtracking)', {
    timeout: 20_000,
  }, () => {
    for (const junk of [
      'a=',
      'password',
      'eyJ',
      'password=',
      '"token": "',
      'eyJa.eyJa',
      'sk-',
      '://a:',
      'Bearer ',
    ]) {
      const text = junk.repeat(Math.ceil(1_000_000 / junk.length));
      const result = redact(text);
      assert.equal(redact(result.text).text, result.text);
    }
    const pems = BEGIN('RSA ').repeat(30_000);
    assert.equal(redact(pems).redactions, 0);
  });

  test('throughput on mixed transcript text (measured, not asserted)', () => {
    const chunk = [
      'I will look at the failing test first, then check how the token budget is computed in ranking.ts.',
      'export function rank(hits: Hit[], opts: { key?: string; limit: number }): Hit[] {',
      '  const token = opts.key ?? getToken(); return hits.slice(0, opts.limit);',
      '}',
      '2026-01-05T10:00:00.000Z INFO [worker-3] processed batch id=48213 rows=512 took=12.40ms',
      '{"type":"tool_result","exit_code":0,"usage":{"input_tokens":2048,"output_tokens":312},"stdout":"ok 12 tests passed"}',
      'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 request_id=550e8400-e29b-41d4-a716-446655440000',
      'Die Änderung betrifft nur die Konfiguration — 日本語のテキストも含まれています。',
    ].join('\n');
    const clean = Array.from({ length: 4000 }, () => chunk).join('\n');
    const dirty = Array.from({ length: 4000 }, (_, i) => (i % 20 === 0 ? `${chunk}\n${mixed}` : chunk)).join(
      '\n',
    );
    for (const [label, text] of [
      ['without secrets', clean],
      ['with secrets', dirty],
    ] as const) {
      redact(text);
      const start = performance.now();
      const result = redact(text);
      const seconds = (performance.now() - start) / 1000;
      console.log(
        `redact ${label}: ${(text.length / 1e6 / seconds).toFixed(0)} MB/s over ${(text.length / 1e6).toFixed(1)} MB`,
      );
      assert.equal(result.redactions > 0, label === 'with secrets');
    }
  });

  test('every kind produced is a declared kind', () => {
    assert.equal(new Set(REDACTION_KINDS).size, REDACTION_KINDS.length);
    for (const kind of seen) assert.ok((REDACTION_KINDS as readonly string[]).includes(kind), kind);
    const missing = REDACTION_KINDS.filter((kind) => !seen.has(kind));
    assert.deepEqual(missing, []);
  });
});
