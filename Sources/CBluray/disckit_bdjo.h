#pragma once
// The layout of libbluray 1.3's `struct bdjo_data` (what bd_read_bdjo returns), which its
// installed headers declare only as an incomplete type. Written for DiscKit's reference tests
// from the layout of libbluray's src/libbluray/bdj/bdjo_data.h (1.3.x); check it when the
// libbluray major or minor version changes.
#include <stdint.h>

struct disckit_bdjo_terminal_info {
  char default_font[6];
  uint8_t initial_havi_config_id;
  uint8_t menu_call_mask;
  uint8_t title_search_mask;
};

struct disckit_bdjo_cache_item {
  uint8_t type;
  char ref_to_name[6];
  char lang_code[4];
};

struct disckit_bdjo_cache_info {
  uint8_t num_item;
  struct disckit_bdjo_cache_item *item;
};

struct disckit_bdjo_playlist {
  char name[6];
};

struct disckit_bdjo_accessible_playlists {
  uint8_t access_to_all_flag;
  uint8_t autostart_first_playlist_flag;
  uint16_t num_pl;
  struct disckit_bdjo_playlist *pl;
};

struct disckit_bdjo_profile {
  uint16_t profile_number;
  uint8_t major_version;
  uint8_t minor_version;
  uint8_t micro_version;
};

struct disckit_bdjo_app_name {
  char lang[4];
  char *name;
};

struct disckit_bdjo_app_param {
  char *param;
};

struct disckit_bdjo_app {
  uint8_t control_code;
  uint8_t type;
  uint32_t org_id;
  uint16_t app_id;
  uint8_t num_profile;
  struct disckit_bdjo_profile *profile;
  uint8_t priority;
  uint8_t binding;
  uint8_t visibility;
  uint16_t num_name;
  struct disckit_bdjo_app_name *name;
  uint8_t icon_flags;  // libbluray keeps the low 8 bits of the 16-bit field
  char *icon_locator;
  char *base_dir;
  char *classpath_extension;
  char *initial_class;
  uint8_t num_param;
  struct disckit_bdjo_app_param *param;
};

struct disckit_bdjo_app_table {
  uint8_t num_app;
  struct disckit_bdjo_app *app;
};

struct disckit_bdjo_key_interest {
  unsigned int vk_play : 1;
  unsigned int vk_stop : 1;
  unsigned int vk_ffw : 1;
  unsigned int vk_rew : 1;
  unsigned int vk_track_next : 1;
  unsigned int vk_track_prev : 1;
  unsigned int vk_pause : 1;
  unsigned int vk_still_off : 1;
  unsigned int vk_sec_audio_ena_dis : 1;
  unsigned int vk_sec_video_ena_dis : 1;
  unsigned int pg_textst_ena_dis : 1;
};

struct disckit_bdjo_file_access {
  char *path;
};

struct bdjo_data {
  uint32_t bdjo_version;
  struct disckit_bdjo_terminal_info terminal_info;
  struct disckit_bdjo_cache_info app_cache_info;
  struct disckit_bdjo_accessible_playlists accessible_playlists;
  struct disckit_bdjo_app_table app_table;
  struct disckit_bdjo_key_interest key_interest_table;
  struct disckit_bdjo_file_access file_access_info;
};
