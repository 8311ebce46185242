/** One message as the benches send it to `POST /ingest/conversations` (no message_uid). */
export interface IngestRecord {
  conversation_uid: string;
  contact_uid: string;
  location_uid: string;
  channel: string;
  occurred_at: string;
  sender: string;
  text: string;
}
