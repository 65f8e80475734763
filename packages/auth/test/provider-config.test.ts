import { ConfigError, EnvReader } from '@svc/config';
import { readSocialProviders } from '../src/index.js';

/** What readSocialProviders makes of these variables, or the start-up error they cause. */
function read(vars: Record<string, string>) {
  const env = new EnvReader(vars);
  const providers = readSocialProviders(env);
  env.done();
  return providers;
}
const problems = (vars: Record<string, string>): string => {
  try {
    read(vars);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join('\n');
    throw error;
  }
  throw new Error('configuration was accepted');
};

describe('readSocialProviders: Discord and X', () => {
  it('leaves both off by default', () => {
    expect(read({})).toEqual({});
  });

  it('Discord needs the client id of our application, and binds tokens to it', () => {
    expect(problems({ DISCORD_LOGIN_ENABLED: 'true' })).toMatch(/DISCORD_CLIENT_ID is required when DISCORD_LOGIN_ENABLED is true/);
    expect(problems({ DISCORD_LOGIN_ENABLED: 'true', DISCORD_CLIENT_ID: 'my-secret-by-mistake' })).toMatch(/DISCORD_CLIENT_ID must be the numeric client id/);
    expect(read({ DISCORD_LOGIN_ENABLED: 'true', DISCORD_CLIENT_ID: '1160000000000000001' }).discord).toEqual({
      baseUrl: 'https://discord.com/api/v10',
      clientIds: ['1160000000000000001'],
    });
    expect(read({ DISCORD_LOGIN_ENABLED: 'true', DISCORD_CLIENT_ID: ' 11, 22 ' }).discord?.clientIds).toEqual(['11', '22']);
  });

  it('X refuses to start unless the operator accepts tokens of other X apps by name', () => {
    for (const accept of [undefined, 'false']) {
      const vars: Record<string, string> = { X_LOGIN_ENABLED: 'true', ...(accept ? { X_LOGIN_ACCEPT_FOREIGN_APP_TOKENS: accept } : {}) };
      expect(problems(vars)).toMatch(/X_LOGIN_ENABLED=true also needs X_LOGIN_ACCEPT_FOREIGN_APP_TOKENS=true: X cannot tell which app/);
    }
    expect(read({ X_LOGIN_ENABLED: 'true', X_LOGIN_ACCEPT_FOREIGN_APP_TOKENS: 'true' }).x).toEqual({ baseUrl: 'https://api.x.com', acceptForeignAppTokens: true });
    // Accepting the risk enables nothing by itself.
    expect(read({ X_LOGIN_ACCEPT_FOREIGN_APP_TOKENS: 'true' })).toEqual({});
  });
});
