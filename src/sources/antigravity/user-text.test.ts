import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { userRequestText } from './user-text.js';

describe('userRequestText', () => {
  it('keeps only the request inside the wrapper', () => {
    assert.equal(
      userRequestText(
        '<USER_REQUEST>\nAdd a GIN index\n</USER_REQUEST>\n<ADDITIONAL_METADATA>\nThe current local time is: 2026-03-09T10:14:02+01:00.\n</ADDITIONAL_METADATA>\n<USER_SETTINGS_CHANGE>\nThe user changed setting `Model Selection`.\n</USER_SETTINGS_CHANGE>',
      ),
      'Add a GIN index',
    );
  });

  it('removes injected blocks nested inside the request or cut off at the end', () => {
    assert.equal(
      userRequestText(
        '<USER_REQUEST>\nBuild it\n<USER_SETTINGS_CHANGE>{"theme":"dark"}</USER_SETTINGS_CHANGE>\n</USER_REQUEST>',
      ),
      'Build it',
    );
    assert.equal(
      userRequestText('<USER_REQUEST>\nFix CORS\n<ADDITIONAL_METADATA>\nThe current local'),
      'Fix CORS',
    );
  });

  it('returns empty text for a message made only of injected blocks', () => {
    assert.equal(
      userRequestText(
        '<ADDITIONAL_METADATA>\nx\n</ADDITIONAL_METADATA>\n<USER_SETTINGS_CHANGE>\ny\n</USER_SETTINGS_CHANGE>',
      ),
      '',
    );
  });

  it('passes unwrapped text through trimmed', () => {
    assert.equal(userRequestText('  plain prompt \n'), 'plain prompt');
  });
});
