import { Calendar } from '../_components/calendar';

export default function CalendarPage() {
  return <Calendar />;
}
