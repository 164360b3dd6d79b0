/**
 * What a failed browser step says (scripts/browser/editor.cts `step`, `addNote`): what the page
 * showed and where its screenshot is. jest prints a failed test's error from its stack, which holds
 * the message as it was when the error was made: a note added to the message alone never reached a
 * CI log (seen when the editor's trigger panel did not show in a CI run, with nothing to say why).
 */
import { addNote } from '../../../scripts/browser/editor.cjs';

/** How jest-circus reads a failed test's error (its `getErrorStack`): the stack when there is one. */
const printed = (error: Error) => (typeof error.stack === 'string' ? error.stack : error.message);

it('a note added to a thrown error whose stack is written out (as Playwright\'s are) is in what jest prints, after the message', () => {
	const error = new Error('locator.waitFor: Timeout 100000ms exceeded.');
	void error.stack;
	addNote(error, '\n(the page showed: /workflow/1: Executing)');
	expect(error.message).toBe('locator.waitFor: Timeout 100000ms exceeded.\n(the page showed: /workflow/1: Executing)');
	const lines = printed(error).split('\n');
	expect(lines.slice(0, 2)).toEqual(['Error: locator.waitFor: Timeout 100000ms exceeded.', '(the page showed: /workflow/1: Executing)']);
	expect(lines[2]).toMatch(/^\s+at /);
});

it('an error whose stack is not written out yet shows the note once', () => {
	const error = new Error('waiting');
	addNote(error, '\n(the page showed: x)');
	expect(printed(error).split('(the page showed: x)')).toHaveLength(2);
	expect(printed(error).startsWith('Error: waiting\n(the page showed: x)\n')).toBe(true);
});

it('an error whose stack does not hold its message gets the note at the end of the stack', () => {
	const error = new Error('first');
	void error.stack;
	error.message = 'changed after';
	addNote(error, '\n(the page showed: x)');
	expect(printed(error).endsWith('\n(the page showed: x)')).toBe(true);
	expect(error.message).toBe('changed after\n(the page showed: x)');
});

it('anything thrown that is not an Error is left as it is', () => {
	const thrown = { reason: 'not an error' };
	addNote(thrown, '\n(note)');
	expect(thrown).toEqual({ reason: 'not an error' });
});
