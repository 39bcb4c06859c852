import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, type AppTypeMeta } from "./fields";

// Booking: appointments, availability and public booking pages.

const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

export const BookingConfig = z.object({
  showCalendar: flag(),
  showAppointments: flag(),
  showAvailability: flag(),
  showBookingPages: flag(),
  enableReminders: flag(),
  enableWaitingList: flag(false),
  /** Appointment lengths a client can pick, in minutes. */
  durationOptions: z.array(z.number().int().min(1).max(1440)).min(1).max(50).default([15, 30, 45, 60]),
  timezone: z.string().refine(isTimeZone, "Use an IANA time zone such as Europe/Paris or UTC").optional(),
});

export const BookingApp = z.object({
  ...baseApp({
    views: ["calendar", "appointments", "availability", "booking-pages"],
    panels: ["upcoming-appointments", "availability", "booking-stats"],
  }),
  type: z.literal("Booking").default("Booking"),
  config: BookingConfig.prefault({}),
});
export type BookingApp = z.infer<typeof BookingApp>;

export const bookingMeta: AppTypeMeta = {
  description: "Scheduling: a calendar, appointments, availability and public booking pages.",
  views: {
    calendar: "Appointments on a day, week or month calendar.",
    appointments: "Every appointment with its client, time, duration and status.",
    availability: "Working hours, breaks and days off, which decide the slots clients can book.",
    "booking-pages": "Public pages where clients pick a duration and a free slot.",
  },
  panels: {
    "upcoming-appointments": "The next appointments, with client, time and duration.",
    availability: "The free slots left this week.",
    "booking-stats": "Bookings, cancellations and no-shows this month.",
  },
};
