// A server error as a person reads it: the API's messages name request fields ("scheduledAt
// is …"), which mean nothing on a form or in an import's preview. The codes with such messages
// get words here; every other message is already written for people.
export function inWords(e: { code: string; message: string }): string {
  switch (e.code) {
    case 'SCHEDULED_TIME_IN_PAST':
      return 'That time has already passed. Pick a time from now on.';
    default:
      return e.message;
  }
}
